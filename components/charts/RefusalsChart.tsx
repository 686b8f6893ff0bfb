"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { RefusalSeries } from "./refusal-series";

const COLORS = ["#b4432f", "#d9822b", "#8c5fbf", "#3f7fbf", "#5b8c3a", "#a33b6b"];

/** Stacked refusals per day by cell. Draws what `prepareRefusalSeries` decided; decides nothing. */
export function RefusalsChart({ series }: { series: RefusalSeries }) {
  // Empty axes read as a chart that failed to load: say that there is nothing to draw.
  if (series.keys.length === 0)
    return (
      <p className="empty-state" data-testid="refusals-chart-empty">
        No refusals in this range: the gate refused nothing here.
      </p>
    );
  return (
    <div style={{ width: "100%", height: 240 }} aria-label="Refusals per day by cell" role="img">
      <ResponsiveContainer>
        <BarChart data={series.points} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} minTickGap={24} />
          <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={32} />
          <Tooltip />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {series.keys.map((key, i) => (
            <Bar key={key} dataKey={key} stackId="cells" fill={COLORS[i % COLORS.length]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

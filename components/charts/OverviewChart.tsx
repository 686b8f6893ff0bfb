"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { OverviewChartModel } from "./overview-series";
import { formatBytes } from "./what-if-series";

// Distinct in light and dark schemes; the numbers beside every chart carry the same facts.
const COLORS = ["#3f7fbf", "#b4432f", "#d9822b", "#5b8c3a"];

/** Bars per bucket (stacked when a chart has several series). Draws what `prepareOverview` decided. */
export function OverviewChart({ chart }: { chart: OverviewChartModel }) {
  const data = chart.points.map((p) => ({ label: p.label, title: p.title, ...p.values }));
  const format = chart.unit === "bytes" ? formatBytes : (n: number) => n.toLocaleString("en");
  return (
    <div style={{ width: "100%", height: 200 }} role="img" aria-label={chart.summary}>
      <ResponsiveContainer>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} minTickGap={16} />
          <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={chart.unit === "bytes" ? 64 : 40} tickFormatter={format} />
          <Tooltip
            labelFormatter={(_, payload) => String(payload?.[0]?.payload?.title ?? "")}
            formatter={(value) => format(Number(value))}
          />
          {chart.keys.length > 1 ? <Legend wrapperStyle={{ fontSize: 12 }} /> : null}
          {chart.keys.map((k, i) => (
            <Bar
              key={k.key}
              dataKey={k.key}
              name={k.label}
              stackId="one"
              fill={COLORS[i % COLORS.length]}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

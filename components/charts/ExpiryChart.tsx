"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { prepareExpirySeries } from "./expiry-series";

const COLORS: Record<string, string> = { STRUCTURED: "#d9822b", SIDE_EFFECTING: "#b4432f" };

/** Originals expiring per week by class. Draws what `prepareExpirySeries` decided. */
export function ExpiryChart({ series }: { series: ReturnType<typeof prepareExpirySeries> }) {
  return (
    <div style={{ width: "100%", height: 220 }} aria-label="Originals expiring per week" role="img">
      <ResponsiveContainer>
        <BarChart data={series.points} margin={{ top: 8, right: 8, bottom: 16, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis
            dataKey="label"
            tick={{ fontSize: 11 }}
            minTickGap={16}
            tickFormatter={(v: string) => v.replace("Week of ", "")}
          />
          <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={40} />
          <Tooltip />
          <Legend verticalAlign="top" wrapperStyle={{ fontSize: 12 }} />
          {series.keys.map((key) => (
            <Bar
              key={key}
              dataKey={key}
              name={series.names[key]}
              stackId="classes"
              fill={COLORS[key] ?? "#3f7fbf"}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

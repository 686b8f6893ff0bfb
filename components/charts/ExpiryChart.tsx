"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { prepareExpirySeries } from "./expiry-series";

const COLORS: Record<string, string> = { STRUCTURED: "#d9822b", SIDE_EFFECTING: "#b4432f" };
const TICK = { fontSize: 11 };
const AXIS_LABEL = { fontSize: 11, fill: "currentColor" };

/** Originals expiring per week by class. Draws what `prepareExpirySeries` decided. */
export function ExpiryChart({ series }: { series: ReturnType<typeof prepareExpirySeries> }) {
  return (
    <div style={{ width: "100%", height: 220 }} aria-label="Originals expiring per week" role="img">
      <ResponsiveContainer>
        <BarChart data={series.points} margin={{ top: 8, right: 12, bottom: 16, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis
            dataKey="label"
            tick={TICK}
            minTickGap={12}
            label={{ value: "Week starting (Monday, UTC)", position: "insideBottom", offset: -8, style: AXIS_LABEL }}
          />
          <YAxis allowDecimals={false} tick={TICK} width={40} />
          <Tooltip labelFormatter={(_, payload) => String(payload?.[0]?.payload?.title ?? "")} />
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

"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatBytes } from "./what-if-series";
import type { prepareReceivedSeries } from "./received-series";

const TICK = { fontSize: 11 };
const AXIS_LABEL = { fontSize: 11, fill: "currentColor" };

/** Bytes received per day and still held, with labelled axes. Draws what `prepareReceivedSeries` decided. */
export function ReceivedChart({ series }: { series: ReturnType<typeof prepareReceivedSeries> }) {
  return (
    <div style={{ width: "100%", height: 200 }} role="img" aria-label="Bytes received per day">
      <ResponsiveContainer>
        <BarChart data={series.points} margin={{ top: 8, right: 12, bottom: 16, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis
            dataKey="label"
            tick={TICK}
            minTickGap={16}
            label={{ value: "Day received", position: "insideBottom", offset: -8, style: AXIS_LABEL }}
          />
          <YAxis
            tick={TICK}
            width={64}
            domain={[0, Math.max(1, series.max)]}
            tickFormatter={formatBytes}
            label={{ value: "Bytes held", angle: -90, position: "insideLeft", style: { ...AXIS_LABEL, textAnchor: "middle" } }}
          />
          <Tooltip formatter={(v) => formatBytes(Number(v))} />
          <Bar dataKey="bytes" name="Bytes held" fill="#3f7fbf" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

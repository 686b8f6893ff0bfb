"use client";

import { Area, AreaChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatBytes, type prepareAnswersSeries, type prepareLostSeries, type prepareStoredSeries } from "./what-if-series";

const CLASS_COLORS: Record<string, string> = { NARRATIVE: "#8a94a6", STRUCTURED: "#d9822b", SIDE_EFFECTING: "#b4432f" };
const POLICY_COLORS = { current: "#3f7fbf", proposed: "#b4432f" };

/** Stored bytes by class over time, stacked. Draws what `prepareStoredSeries` decided. */
export function StoredBytesChart({ title, series }: { title: string; series: ReturnType<typeof prepareStoredSeries> }) {
  return (
    <figure style={{ margin: 0, flex: "1 1 320px", minWidth: 0 }}>
      <figcaption style={{ fontSize: 13, fontWeight: 600 }}>{title}</figcaption>
      <div style={{ width: "100%", height: 200 }} role="img" aria-label={title}>
        <ResponsiveContainer>
          <AreaChart data={series.points} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="date" tick={{ fontSize: 11 }} minTickGap={24} />
            <YAxis tick={{ fontSize: 11 }} width={56} domain={[0, series.max || 1]} tickFormatter={formatBytes} />
            <Tooltip formatter={(v) => formatBytes(Number(v))} />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            {series.keys.map((key) => (
              <Area
                key={key}
                type="stepAfter"
                dataKey={key}
                stackId="stored"
                stroke={CLASS_COLORS[key]}
                fill={CLASS_COLORS[key]}
                isAnimationActive={false}
              />
            ))}
          </AreaChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

/** Two cumulative lines, current and proposed (lost evidence, or answers changed). */
export function CurrentVsProposedChart({
  title,
  points,
}: {
  title: string;
  points: ReturnType<typeof prepareLostSeries> | ReturnType<typeof prepareAnswersSeries>;
}) {
  return (
    <figure style={{ margin: 0, flex: "1 1 320px", minWidth: 0 }}>
      <figcaption style={{ fontSize: 13, fontWeight: 600 }}>{title}</figcaption>
      <div style={{ width: "100%", height: 200 }} role="img" aria-label={title}>
        <ResponsiveContainer>
          <LineChart data={points} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="date" tick={{ fontSize: 11 }} minTickGap={24} />
            <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={40} />
            <Tooltip />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            {(["current", "proposed"] as const).map((key) => (
              <Line
                key={key}
                type="stepAfter"
                dataKey={key}
                stroke={POLICY_COLORS[key]}
                dot={false}
                strokeWidth={2}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

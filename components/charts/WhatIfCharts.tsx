"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatBytes, type prepareAnswersSeries, type prepareLostSeries, type prepareStorageComparison } from "./what-if-series";

const POLICY_COLORS = { current: "#3f7fbf", proposed: "#b4432f" };
const POLICY_NAMES = { current: "Current policy", proposed: "Proposed policy" };
const TICK = { fontSize: 11 };
const AXIS_LABEL = { fontSize: 11, fill: "currentColor" };

type Points =
  | ReturnType<typeof prepareStorageComparison>["points"]
  | ReturnType<typeof prepareLostSeries>
  | ReturnType<typeof prepareAnswersSeries>;

/**
 * Current beside proposed as two lines on one pair of axes, so their heights compare directly:
 * bytes stored, evidence lost, answers changed. Draws what the prepare functions decided; `bytes`
 * says whether the values are bytes (ticks and tooltip formatted as such) or counts.
 */
export function CurrentVsProposedChart({
  title,
  points,
  yLabel,
  bytes = false,
}: {
  title: string;
  points: Points;
  /** What the y-axis counts, written along it. */
  yLabel: string;
  bytes?: boolean;
}) {
  const format = bytes ? formatBytes : (v: number) => v.toLocaleString("en");
  return (
    <figure style={{ margin: 0, flex: "1 1 320px", minWidth: 0 }}>
      <figcaption style={{ fontSize: 13, fontWeight: 600 }}>{title}</figcaption>
      <div style={{ width: "100%", height: 230 }} role="img" aria-label={title}>
        <ResponsiveContainer>
          <LineChart data={points} margin={{ top: 8, right: 24, bottom: 16, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis
              dataKey="label"
              tick={TICK}
              minTickGap={24}
              label={{ value: "Day", position: "insideBottom", offset: -8, style: AXIS_LABEL }}
            />
            <YAxis
              allowDecimals={false}
              tick={TICK}
              width={bytes ? 64 : 48}
              domain={[0, "auto"]}
              tickFormatter={format}
              label={{ value: yLabel, angle: -90, position: "insideLeft", style: { ...AXIS_LABEL, textAnchor: "middle" } }}
            />
            <Tooltip formatter={(v) => format(Number(v))} />
            <Legend verticalAlign="top" wrapperStyle={{ fontSize: 12 }} />
            {(["current", "proposed"] as const).map((key) => (
              <Line
                key={key}
                type="stepAfter"
                dataKey={key}
                name={POLICY_NAMES[key]}
                stroke={POLICY_COLORS[key]}
                strokeDasharray={key === "proposed" ? "6 3" : undefined}
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

import { formatCount } from "./format";

/**
 * How many times a session was compacted without asking the gate (an imported compaction record,
 * one a hook or OTLP reported after the fact): nothing when none, a warning badge otherwise.
 */
export function CompactionBadge({ count }: { count: number }) {
  if (count === 0) return <span className="subtitle">0</span>;
  return (
    <span
      className="badge risk"
      data-testid="unasked-compactions"
      title={`Compacted ${formatCount(count)} time${count === 1 ? "" : "s"} without asking the gate`}
    >
      {formatCount(count)}
    </span>
  );
}

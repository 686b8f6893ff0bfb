import { bodySegments } from "./body-segments";
import type { Atom } from "@/lib/evidence/types";

/**
 * The verbatim body, escaped (React renders text, never HTML), with atoms highlighted by byte
 * range and the cited range, if any, marked for the eye and for scrolling.
 */
export function SpanBody({
  bytes,
  atoms,
  cited,
}: {
  bytes: Uint8Array;
  atoms: readonly Atom[];
  cited?: { byteStart: number; byteEnd: number };
}) {
  const segments = bodySegments(
    bytes,
    atoms.map((a) => ({ byteStart: a.byteStart, byteEnd: a.byteEnd, label: a.kind.toLowerCase().replace("_", " ") })),
    cited,
  );
  let citedAnchorPlaced = false;
  return (
    <pre className="body-view" data-testid="span-body">
      {segments.map((segment) => {
        const anchor = segment.cited && !citedAnchorPlaced;
        if (anchor) citedAnchorPlaced = true;
        if (segment.labels.length === 0 && !segment.cited) return <span key={segment.byteStart}>{segment.text}</span>;
        return (
          <mark
            key={segment.byteStart}
            id={anchor ? "cited" : undefined}
            className={segment.cited ? "cited" : "atom"}
            title={`${segment.labels.join(", ")} · bytes ${segment.byteStart}–${segment.byteEnd}`}
            data-bytes={`${segment.byteStart}-${segment.byteEnd}`}
          >
            {segment.text}
          </mark>
        );
      })}
    </pre>
  );
}

import { bodySegments } from "./body-segments";
import type { Atom } from "@/lib/evidence/types";

/**
 * The verbatim body, escaped (React renders text, never HTML), with atoms highlighted by byte
 * range and the cited range, if any, marked for the eye and for scrolling. `bytes` may be an
 * excerpt of the original starting at byte `base`: ranges are the original's, shown as such.
 */
export function SpanBody({
  bytes,
  base = 0,
  atoms,
  cited,
}: {
  bytes: Uint8Array;
  base?: number;
  atoms: readonly Atom[];
  cited?: { byteStart: number; byteEnd: number };
}) {
  const end = base + bytes.byteLength;
  const segments = bodySegments(
    bytes,
    atoms
      .filter((a) => a.byteEnd > base && a.byteStart < end)
      .map((a) => ({
        byteStart: a.byteStart - base,
        byteEnd: a.byteEnd - base,
        label: a.kind.toLowerCase().replace("_", " "),
      })),
    cited ? { byteStart: cited.byteStart - base, byteEnd: cited.byteEnd - base } : undefined,
  ).map((segment) => ({ ...segment, byteStart: segment.byteStart + base, byteEnd: segment.byteEnd + base }));
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

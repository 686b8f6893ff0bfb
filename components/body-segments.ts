/**
 * Splits a span's bytes into runs for display: each run is plain text or covered by one or more
 * atoms (by byte range), and optionally inside a cited range. Pure, so the highlighting can be
 * tested without a browser; decoding replaces invalid UTF-8 with U+FFFD per run.
 */

export interface RangeMark {
  byteStart: number;
  byteEnd: number;
  label: string;
}

export interface BodySegment {
  text: string;
  byteStart: number;
  byteEnd: number;
  labels: string[];
  cited: boolean;
}

export function bodySegments(
  bytes: Uint8Array,
  marks: readonly RangeMark[],
  cited?: { byteStart: number; byteEnd: number },
): BodySegment[] {
  const cuts = new Set<number>([0, bytes.byteLength]);
  const inBounds = (n: number) => Math.max(0, Math.min(bytes.byteLength, n));
  for (const m of marks) {
    cuts.add(inBounds(m.byteStart));
    cuts.add(inBounds(m.byteEnd));
  }
  if (cited) {
    cuts.add(inBounds(cited.byteStart));
    cuts.add(inBounds(cited.byteEnd));
  }
  const points = [...cuts].sort((a, b) => a - b);
  const decoder = new TextDecoder("utf-8", { fatal: false });
  const segments: BodySegment[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const start = points[i]!;
    const end = points[i + 1]!;
    if (end <= start) continue;
    const labels = marks.filter((m) => m.byteStart <= start && m.byteEnd >= end).map((m) => m.label);
    segments.push({
      text: decoder.decode(bytes.subarray(start, end)),
      byteStart: start,
      byteEnd: end,
      labels: [...new Set(labels)],
      cited: cited !== undefined && cited.byteStart <= start && cited.byteEnd >= end,
    });
  }
  return segments;
}

/**
 * What would have made a refused span acceptable, found by asking the gate itself (lib/evidence)
 * about changed candidates rather than restating its rules: a remedy is listed only when the gate,
 * given that change, lets the span go. Pure: facts in, remedies out.
 */
import { decide, type GateDecision, type GateSpan } from "@/lib/evidence/gate";
import { formatKindCounts, type KindCount, manifestCounts } from "@/lib/evidence/manifest";
import { horizonMs } from "@/lib/evidence/policy";
import { ATOM_KINDS, type CandidateSummary, type RetentionPolicy, type Verdict } from "@/lib/evidence/types";

export type Remedy =
  /** The summary lacked only its pointer to this span. */
  | { kind: "POINTER"; text: string }
  /** A pointer (if the summary had none) and the original held to the span's evidence horizon. */
  | { kind: "KEEP_ORIGINAL"; needsPointer: boolean; extendTo: string | null; text: string }
  /** A pointer (if the summary had none) and a manifest also naming what the text drops. */
  | { kind: "MANIFEST"; needsPointer: boolean; names: KindCount[]; text: string };

export interface SpanRemedies {
  /** The gate's verdict on the same summary over the span as it is now (a pin since may have changed it). */
  verdictNow: Verdict;
  remedies: Remedy[];
  /** Why a kind of remedy is not offered, when the facts rule it out. */
  notes: string[];
}

const accepted = (d: GateDecision) => d.verdict !== "REFUSE";
const POINTER_TEXT = "a provenance pointer to this span";

/** The summary with a whole-span pointer to this span added, unless it already points at its bytes. */
function withPointer(summary: CandidateSummary, span: GateSpan, byteLength: number): CandidateSummary {
  const want = span.sha256?.toLowerCase();
  if (summary.pointers.some((p) => p.spanId === span.id && (want === undefined || p.sha256.toLowerCase() === want)))
    return summary;
  return {
    ...summary,
    pointers: [...summary.pointers, { spanId: span.id, byteStart: 0, byteEnd: byteLength, sha256: span.sha256 ?? "" }],
  };
}

/**
 * Remedies for one span the gate refused, judged at `now` under `policy` with the span's facts
 * as they are: a pointer alone; a pointer with the original kept to its horizon (pin, or a TTL
 * extended to the horizon); or a pointer with a manifest naming what the text drops.
 */
export function remediesFor(
  span: GateSpan & { byteLength: number },
  summary: CandidateSummary,
  policy: RetentionPolicy,
  now: Date,
): SpanRemedies {
  const verdictNow = decide(span, summary, policy, now).verdict;
  if (verdictNow !== "REFUSE") return { verdictNow, remedies: [], notes: [] };
  const pointed = withPointer(summary, span, span.byteLength);
  const needsPointer = pointed !== summary;
  const withPointerOnly = decide(span, pointed, policy, now);
  if (needsPointer && accepted(withPointerOnly))
    return { verdictNow, remedies: [{ kind: "POINTER", text: POINTER_TEXT }], notes: [] };

  const remedies: Remedy[] = [];
  const notes: string[] = [];
  const original = span.original;
  if (original?.present && original.hashMatches) {
    const pinned = decide({ ...span, original: { ...original, pinned: true } }, pointed, policy, now);
    if (accepted(pinned)) {
      const horizon = new Date(horizonMs(span.occurredAt.getTime(), policy));
      const extended = decide({ ...span, original: { ...original, pinned: false, expiresAt: horizon } }, pointed, policy, now);
      const extendTo = accepted(extended) ? horizon.toISOString() : null;
      const keep = extendTo ? "pin it or extend its TTL" : "pin it: its evidence horizon has passed";
      remedies.push({
        kind: "KEEP_ORIGINAL",
        needsPointer,
        extendTo,
        text: `${needsPointer ? `${POINTER_TEXT} with ` : ""}the original kept to its horizon (${keep})`,
      });
    }
  } else {
    notes.push("Its original is gone or no longer matches its hash: no pin or TTL can bring it back.");
  }

  // The shortfall the gate itself reports for the summary with a pointer, added to what the manifest names.
  const missing = withPointerOnly.manifestCheck?.missing ?? [];
  if (missing.length > 0 || withPointerOnly.manifestCheck?.hasManifest === false) {
    const named = manifestCounts(summary.omissions ?? { omitted: [] });
    for (const { kind, count } of missing) named.set(kind, (named.get(kind) ?? 0) + count);
    const omitted = ATOM_KINDS.filter((k) => (named.get(k) ?? 0) > 0).map((kind) => ({ kind, count: named.get(kind)! }));
    const honest = decide(span, { ...pointed, omissions: { omitted } }, policy, now);
    if (accepted(honest)) {
      const lead = summary.omissions ? "its omission manifest also naming" : "an omission manifest naming";
      // A text that keeps every atom still has to say so: without a manifest it is never honest.
      const what = missing.length > 0 ? `${lead}: ${formatKindCounts(missing)}` : "an omission manifest, even an empty one";
      remedies.push({
        kind: "MANIFEST",
        needsPointer,
        names: missing,
        text: `${what}${needsPointer ? `, and ${POINTER_TEXT}` : ""}`,
      });
    }
  }
  return { verdictNow, remedies, notes };
}

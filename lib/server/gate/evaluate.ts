import { db } from "@/lib/db/client";
import { analyzeSpan } from "@/lib/evidence/analyze";
import { maxClass } from "@/lib/evidence/classes";
import { evaluateGate, type GateSpan } from "@/lib/evidence/gate";
import type { CandidateSummary, EvidentialClass, RetentionPolicy, SpanKind } from "@/lib/evidence/types";
import { decisionJson } from "./decision-json";
import { loadPolicy } from "@/lib/server/retention";

/** Facts a runtime reports about spans in its own store (validated at the edge). */
export interface GateEvaluateInput {
  spans: Array<{
    id: string;
    class?: EvidentialClass;
    content?: string;
    kind: SpanKind;
    toolName?: string;
    toolInput?: unknown;
    hasPointer: boolean;
    originalRetrievable: boolean;
    originalExpiresAt?: Date;
    pinned: boolean;
    occurredAt?: Date;
  }>;
  summary?: CandidateSummary;
  policy?: Partial<Omit<RetentionPolicy, "ttlDays">> & { ttlDays?: Partial<RetentionPolicy["ttlDays"]> };
}

/**
 * Runs the gate on facts a runtime reports about its own store. The project's policy applies,
 * with any fields the request overrides (to try a policy before adopting it).
 */
export async function evaluateGateRequest(projectId: string, input: GateEvaluateInput, now = new Date()) {
  const stored = await loadPolicy(db(), projectId);
  const policy: RetentionPolicy = {
    ...stored,
    ...input.policy,
    ttlDays: { ...stored.ttlDays, ...input.policy?.ttlDays },
  };
  const spans: GateSpan[] = input.spans.map((span) => {
    const analysis =
      span.content !== undefined
        ? analyzeSpan({
            body: new TextEncoder().encode(span.content),
            kind: span.kind,
            toolName: span.toolName,
            toolInput: span.toolInput,
          })
        : null;
    return {
      id: span.id,
      // A class stated by the caller can only raise what the content shows, never lower it.
      class:
        analysis && span.class
          ? maxClass(analysis.classification.class, span.class)
          : (span.class ?? analysis!.classification.class),
      atoms: analysis?.atoms ?? [],
      hasPointer: span.hasPointer,
      original: span.originalRetrievable
        ? { present: true, hashMatches: true, expiresAt: span.originalExpiresAt ?? null, pinned: span.pinned }
        : null,
      occurredAt: span.occurredAt ?? now,
    };
  });
  let summary: CandidateSummary | undefined;
  if (input.summary) {
    // With a summary the gate reads pointers from it; a span the caller says is pointed to counts as carried.
    const carried = new Set(input.summary.pointers.map((p) => p.spanId));
    const implied = spans
      .filter((s) => s.hasPointer && !carried.has(s.id))
      .map((s) => ({ spanId: s.id, byteStart: 0, byteEnd: 0, sha256: "0".repeat(64) }));
    summary = { ...input.summary, pointers: [...input.summary.pointers, ...implied] };
  }
  return evaluateGate({ spans, summary, policy, now }).map(decisionJson);
}

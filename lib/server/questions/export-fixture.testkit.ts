/** An answer and its context for tests of the export document and its printable page (no database). */
import { createHash } from "node:crypto";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";
import { completenessCase, type Blocker, type Citation } from "@/lib/evidence/questions";
import type { EvidenceQueryResult } from "./ask";
import type { ExportContext } from "./export-document";

export const SAMPLE_SESSION_ID = "00000000-0000-4000-8000-000000000001";
export const SAMPLE_PROJECT_ID = "00000000-0000-4000-8000-000000000002";
export const SAMPLE_BODY = new TextEncoder().encode('{"command":"rm -rf /etc/app/<script>"}');

export function sampleResult(citations = 2): EvidenceQueryResult {
  const cites: Citation[] = Array.from({ length: citations }, (_, i) => ({
    sessionId: SAMPLE_SESSION_ID,
    spanId: `00000000-0000-4000-8000-1000000000${String(i).padStart(2, "0")}`,
    seq: i,
    byteStart: 19,
    byteEnd: 36,
    sha256: createHash("sha256").update(SAMPLE_BODY).digest("hex"),
    excerpt: "/etc/app/<script>",
    bytes: SAMPLE_BODY.subarray(19, 36),
    atomKind: "PATH",
    predicateIndex: 0,
    spanKind: "TOOL_CALL",
    outcome: "FAILED",
    exitCode: 1,
  }));
  const blocker: Blocker = {
    sessionId: SAMPLE_SESSION_ID,
    spanId: "00000000-0000-4000-8000-200000000000",
    seq: 9,
    class: "SIDE_EFFECTING",
    provenance: "LOST",
    transcriptState: "RECLAIMED",
    dropped: [],
    originalHeld: true,
    unblockBy: "pin",
    reason: "replaced without a pointer",
  };
  return {
    question: { id: "custom", title: "Custom question", anyOf: [{ valuePrefixes: ["/etc/app/"] }] },
    sessionsInScope: 1,
    answer: "YES",
    citations: cites,
    blockers: [blocker],
    checkedSpans: citations,
    scopeComplete: false,
    gaps: [],
    skippedRecords: [],
    noSpansInScope: false,
    completeness: completenessCase({ blockers: [blocker], gaps: [], skippedRecords: [], noSpansInScope: false }),
    outcomes: { FAILED: citations },
    citationCount: citations,
    blockerCount: 1,
  };
}

export const sampleContext: ExportContext = {
  project: { id: SAMPLE_PROJECT_ID, slug: "shop", name: "Shop" },
  askedBy: { id: "u1", email: "auditor@example.com" },
  askedAt: new Date("2026-12-03T10:00:00Z"),
  scope: { from: new Date("2026-11-01T00:00:00Z") },
  policy: { version: 4, policy: DEFAULT_POLICY },
};

/** A span as submitted for ingest, and what ingest answers for it. */
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import type { EvidentialClass, SpanKind } from "@/lib/evidence/types";

export interface SpanSubmission {
  seq: number;
  kind: SpanKind;
  role?: string | null;
  toolName?: string | null;
  toolInput?: unknown;
  exitCode?: number | null;
  /** TOOL_CALL spans and their results: what became of the call (docs/design.md, "Outcomes"). */
  outcome?: ToolOutcome | null;
  /** The subagent that produced the span; absent for the session's main agent. */
  agentId?: string | null;
  agentType?: string | null;
  /** The line (or record) of an imported file the span came from. */
  sourceLine?: number | null;
  occurredAt: Date;
  body: Uint8Array;
  /** Where a tool call ran, when it differs from the session's working directory. */
  cwd?: string | null;
  toolAnnotations?: { readOnlyHint?: boolean; destructiveHint?: boolean };
}

export interface IngestedSpan {
  id: string;
  seq: number;
  class: EvidentialClass;
  atomCount: number;
  sha256: string;
  /** False when this exact span was already stored: resubmission is a no-op. */
  created: boolean;
}

export interface HashedSpan {
  span: SpanSubmission;
  sha256: string;
}

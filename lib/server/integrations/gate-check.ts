/**
 * The gate asked about stored spans and a candidate summary, as a dry run: verdicts per span,
 * nothing recorded. What an MCP client or a hook asks before it lets spans go.
 */
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import type { CandidateSummary } from "@/lib/evidence/types";
import { reclaim } from "@/lib/server/gate";

export async function gateCheck(projectId: string, spanIds: string[], summary: CandidateSummary, requester: string) {
  const spans = await db().span.findMany({
    where: { id: { in: spanIds }, session: { projectId } },
    select: { id: true, sessionId: true },
  });
  const found = new Set(spans.map((s) => s.id));
  const missing = spanIds.filter((id) => !found.has(id));
  if (missing.length > 0)
    throw new AppError("NOT_FOUND", `Span${missing.length === 1 ? "" : "s"} not found: ${missing.slice(0, 5).join(", ")}`);
  const sessions = [...new Set(spans.map((s) => s.sessionId))];
  if (sessions.length !== 1)
    throw new AppError("VALIDATION_FAILED", "A gate check covers spans of one session", {
      fields: [{ path: "spanIds", message: `spans of ${sessions.length} sessions` }],
    });
  return reclaim({ projectId, sessionId: sessions[0]!, selection: { spanIds }, summary, dryRun: true, requester });
}

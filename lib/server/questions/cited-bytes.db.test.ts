import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { candidateSummaryFor } from "@/lib/server/gate/candidate-summary";
import { reclaim } from "@/lib/server/gate/reclaim";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { askEvidenceQuestion } from "./ask";

const systemConfig = { canned: "modified-system-config" } as const;
const bytes = (s: string) => new TextEncoder().encode(s);

/** A session whose write to /etc was replaced by a summary with a pointer: checkable while its original is. */
async function reclaimedWrite(label: string) {
  const project = await makeTestProject(label);
  const { session } = await upsertSession(project.id, { externalId: label, runtime: "claude-code", cwd: "/home/dev/app" });
  const body = 'write_file(path="/etc/app/conf.yaml")';
  const [write] = await appendSpans(project.id, session.id, [
    { seq: 0, kind: "TOOL_CALL", toolName: "write_file", occurredAt: new Date(), body: bytes(body) },
    { seq: 1, kind: "MESSAGE", role: "assistant", occurredAt: new Date(), body: bytes("Done.") },
  ]);
  const summary = await candidateSummaryFor(session.id, [write!.id], "Configured the app.", { pointers: true });
  await reclaim({
    projectId: project.id,
    sessionId: session.id,
    selection: { spanIds: [write!.id] },
    summary,
    dryRun: false,
    requester: "test",
    observed: true,
  });
  return { projectId: project.id, sessionId: session.id, spanId: write!.id, body };
}

describe("the bytes of the citations an answer keeps", () => {
  it("are cut from the original, which still hashes to the span's sha256", async () => {
    const s = await reclaimedWrite("cited-bytes-held");
    const answer = await askEvidenceQuestion({ projectId: s.projectId, question: systemConfig });
    expect(answer.answer).toBe("YES");
    const [citation] = answer.citations;
    expect(citation!.spanId).toBe(s.spanId);
    expect(new TextDecoder().decode(citation!.bytes)).toBe("/etc/app/conf.yaml");
    expect(s.body.slice(citation!.byteStart, citation!.byteEnd)).toBe("/etc/app/conf.yaml");
    expect(citation!.excerpt).toBe("/etc/app/conf.yaml");
  });

  it("are not given from an original damaged behind the database's back: the damage is recorded and the span blocks", async () => {
    const s = await reclaimedWrite("cited-bytes-damaged");
    await db().$transaction(async (tx) => {
      // As storage damage would: no trigger sees the change.
      await tx.$executeRaw`set local session_replication_role = replica`;
      await tx.$executeRaw`update span_original set bytes = ${"damaged"}::bytea
        where session_id = ${s.sessionId}::uuid and span_id = ${s.spanId}::uuid`;
    });
    const answer = await askEvidenceQuestion({ projectId: s.projectId, question: systemConfig });
    expect(answer.answer).toBe("INSUFFICIENT_EVIDENCE");
    expect(answer.citations).toEqual([]);
    expect(answer.blockers.map((b) => b.spanId)).toEqual([s.spanId]);
    const span = await db().span.findUniqueOrThrow({
      where: { sessionId_id: { sessionId: s.sessionId, id: s.spanId } },
      select: { originalState: true },
    });
    expect(span.originalState).toBe("HASH_MISMATCH");
  });
});

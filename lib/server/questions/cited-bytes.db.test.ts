import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { candidateSummaryFor } from "@/lib/server/gate/candidate-summary";
import { reclaim } from "@/lib/server/gate/reclaim";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { askEvidenceQuestion } from "./ask";

const systemConfig = { canned: "modified-system-config" } as const;
const bytes = (s: string) => new TextEncoder().encode(s);

/** A session whose writes to /etc were replaced by a summary with pointers: checkable while their originals are. */
async function reclaimedWrites(label: string, writes = 1) {
  const project = await makeTestProject(label);
  const { session } = await upsertSession(project.id, { externalId: label, runtime: "claude-code", cwd: "/home/dev/app" });
  const body = (i: number) => `write_file(path="/etc/app/conf-${i}.yaml")`;
  const spans = await appendSpans(project.id, session.id, [
    ...Array.from({ length: writes }, (_, i) => ({
      seq: i,
      kind: "TOOL_CALL" as const,
      toolName: "write_file",
      occurredAt: new Date(),
      body: bytes(body(i)),
    })),
    { seq: writes, kind: "MESSAGE", role: "assistant", occurredAt: new Date(), body: bytes("Done.") },
  ]);
  const ids = spans.slice(0, writes).map((s) => s.id);
  const summary = await candidateSummaryFor(session.id, ids, "Configured the app.", { pointers: true });
  await reclaim({
    projectId: project.id,
    sessionId: session.id,
    selection: { spanIds: ids },
    summary,
    dryRun: false,
    requester: "test",
    observed: true,
  });
  return { projectId: project.id, sessionId: session.id, spanIds: ids, body };
}

/** Bytes changed as storage damage would change them: no trigger sees it. */
async function damage(sessionId: string, spanId: string) {
  await db().$transaction(async (tx) => {
    await tx.$executeRaw`set local session_replication_role = replica`;
    await tx.$executeRaw`update span_original set bytes = ${"damaged"}::bytea
      where session_id = ${sessionId}::uuid and span_id = ${spanId}::uuid`;
  });
}

const originalState = async (sessionId: string, spanId: string) =>
  (await db().span.findUniqueOrThrow({ where: { sessionId_id: { sessionId, id: spanId } }, select: { originalState: true } }))
    .originalState;

describe("the bytes of the citations an answer keeps", () => {
  it("are cut from the original, which still hashes to the span's sha256", async () => {
    const s = await reclaimedWrites("cited-bytes-held");
    const answer = await askEvidenceQuestion({ projectId: s.projectId, question: systemConfig });
    expect(answer.answer).toBe("YES");
    const [citation] = answer.citations;
    expect(citation!.spanId).toBe(s.spanIds[0]);
    expect(new TextDecoder().decode(citation!.bytes)).toBe("/etc/app/conf-0.yaml");
    expect(s.body(0).slice(citation!.byteStart, citation!.byteEnd)).toBe("/etc/app/conf-0.yaml");
    expect(citation!.excerpt).toBe("/etc/app/conf-0.yaml");
  });

  it("are not given from an original damaged behind the database's back: the damage is recorded and the span blocks", async () => {
    const s = await reclaimedWrites("cited-bytes-damaged");
    await damage(s.sessionId, s.spanIds[0]!);
    const answer = await askEvidenceQuestion({ projectId: s.projectId, question: systemConfig });
    expect(answer.answer).toBe("INSUFFICIENT_EVIDENCE");
    expect(answer.citations).toEqual([]);
    expect(answer.blockers.map((b) => b.spanId)).toEqual(s.spanIds);
    expect(await originalState(s.sessionId, s.spanIds[0]!)).toBe("HASH_MISMATCH");
  });

  it("are read again for the citations kept next, until no damage is found", async () => {
    // With one citation kept, the first damaged original found leaves the next one to be kept.
    const s = await reclaimedWrites("cited-bytes-damaged-next", 2);
    for (const id of s.spanIds) await damage(s.sessionId, id);
    const answer = await askEvidenceQuestion({ projectId: s.projectId, question: systemConfig }, new Date(), { window: 1 });
    expect(answer.answer).toBe("INSUFFICIENT_EVIDENCE");
    expect(answer.citationCount).toBe(0);
    expect(answer.blockerCount).toBe(2);
    for (const id of s.spanIds) expect(await originalState(s.sessionId, id)).toBe("HASH_MISMATCH");
  });
});

/**
 * Originals are verified when their bytes are written; bytes changed behind the database's back
 * are caught by the sweeper's scrub, by the gate (which hashes what it is about to let go) and by
 * every read that serves bytes from an original (a stored verdict serves the bytes it cut, which
 * hashed right when it was judged). Until then the recorded verification stands: that is the trade-off
 * that keeps a 100,000-span session's grid from hashing every original on each view.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";
import { candidateSummaryFor } from "@/lib/server/gate/candidate-summary";
import { askEvidenceQuestion } from "@/lib/server/questions/ask";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { reclaim } from "@/lib/server/gate/reclaim";
import { spanStatusOf } from "./span-status";
import { sweep } from "@/lib/server/retention/sweeper";
import { makeTestProject } from "@/lib/server/admin/test-project";

const BODY = 'write_file(path="/etc/app/conf.yaml", mode="overwrite")';

async function scenario(label: string) {
  const project = await makeTestProject(label);
  const { session } = await upsertSession(project.id, {
    externalId: `${label}-${randomUUID()}`,
    runtime: "claude-code",
    cwd: "/home/dev/app",
  });
  const [write] = await appendSpans(project.id, session.id, [
    { seq: 0, kind: "TOOL_CALL", toolName: "write_file", occurredAt: new Date(), body: new TextEncoder().encode(BODY) },
  ]);
  return { projectId: project.id, sessionId: session.id, spanId: write!.id };
}

/** Bytes changed without any trigger seeing it, as storage damage would. */
async function damageQuietly(sessionId: string, spanId: string) {
  await db().$transaction(async (tx) => {
    await tx.$executeRaw`set local session_replication_role = replica`;
    await tx.$executeRaw`update span_original set bytes = ${"damaged bytes"}::bytea where session_id = ${sessionId}::uuid and span_id = ${spanId}::uuid`;
  });
}

const state = async (sessionId: string, spanId: string) =>
  (
    await db().spanOriginal.findUniqueOrThrow({
      where: { sessionId_spanId: { sessionId, spanId } },
      select: { bytesState: true },
    })
  ).bytesState;

describe("verifying originals", () => {
  it("a write that does not match the span's sha256 is recorded as a mismatch at once (LOST)", async () => {
    const s = await scenario("verify-write");
    await db()
      .$executeRaw`update span_original set bytes = ${"other bytes"}::bytea where session_id = ${s.sessionId}::uuid and span_id = ${s.spanId}::uuid`;
    expect(await state(s.sessionId, s.spanId)).toBe("HASH_MISMATCH");
    expect(await spanStatusOf(db(), s.sessionId, s.spanId, DEFAULT_POLICY, new Date())).toBe("LOST");
    // Nor can the recorded state be set by hand: the trigger hashes the bytes again.
    await db()
      .$executeRaw`update span_original set bytes_state = 'HELD' where session_id = ${s.sessionId}::uuid and span_id = ${s.spanId}::uuid`;
    expect(await state(s.sessionId, s.spanId)).toBe("HASH_MISMATCH");
  });

  it("damage behind the database's back: the scrub records it and audits what moved to LOST", async () => {
    const s = await scenario("verify-scrub");
    await damageQuietly(s.sessionId, s.spanId);
    expect(await state(s.sessionId, s.spanId)).toBe("HELD"); // the trade-off: unseen until checked
    // The scrub takes the originals verified longest ago: make this one the oldest.
    await db()
      .$executeRaw`update span_original set verified_at = '2000-01-01' where session_id = ${s.sessionId}::uuid and span_id = ${s.spanId}::uuid`;
    const result = await sweep(new Date(), 10_000, 1);
    expect(result).toMatchObject({ verified: 1, damaged: 1 });
    expect(result.lostSpanIds).toContain(s.spanId);
    expect(await state(s.sessionId, s.spanId)).toBe("HASH_MISMATCH");
    const audit = await db().auditLog.findFirstOrThrow({ where: { targetId: s.spanId, act: "original.hash_mismatch" } });
    expect(audit.after).toMatchObject({ verified: false, movedToLost: [s.spanId] });
  });

  it("the gate hashes what it is about to let go, and records damage it finds", async () => {
    const s = await scenario("verify-gate");
    await damageQuietly(s.sessionId, s.spanId);
    const summary = await candidateSummaryFor(s.sessionId, [s.spanId], "Wrote the config.", { pointers: true });
    const outcome = await reclaim({
      projectId: s.projectId,
      sessionId: s.sessionId,
      selection: { spanIds: [s.spanId] },
      summary,
      dryRun: true,
      requester: "test",
    });
    expect(outcome.decisions[0]).toMatchObject({ verdict: "REFUSE", cell: { provenance: "LOST" } });
    expect(await state(s.sessionId, s.spanId)).toBe("HASH_MISMATCH");
  });

  it("a question judged afresh never cites damaged bytes and records them; a stored verdict is judged again once they are recorded", async () => {
    const s = await scenario("verify-question");
    const summary = await candidateSummaryFor(s.sessionId, [s.spanId], "Wrote the config.", { pointers: true });
    await reclaim({
      projectId: s.projectId,
      sessionId: s.sessionId,
      selection: { spanIds: [s.spanId] },
      summary,
      dryRun: false,
      requester: "test",
    });
    const systemConfig = { canned: "modified-system-config" };
    const before = await askEvidenceQuestion({ projectId: s.projectId, question: systemConfig });
    expect(before.answer).toBe("YES");
    expect(new TextDecoder().decode(before.citations[0]!.bytes)).toBe("/etc/app/conf.yaml");

    await damageQuietly(s.sessionId, s.spanId);
    // The trade-off: the stored verdict still serves the bytes it cut when it was judged, which
    // hashed right then; nothing has looked at the original since.
    expect(await askEvidenceQuestion({ projectId: s.projectId, question: systemConfig })).toEqual(before);

    // A question judged afresh (a custom one is never stored) reads the original, finds the
    // damage, records it and answers as it now stands.
    const fresh = await askEvidenceQuestion({
      projectId: s.projectId,
      question: { predicate: { effectKinds: ["FILE_WRITE"], valuePrefixes: ["/etc/"] } },
    });
    expect(fresh.answer).toBe("INSUFFICIENT_EVIDENCE");
    expect(fresh.citations).toEqual([]);
    expect(fresh.blockers.map((b) => [b.spanId, b.provenance])).toEqual([[s.spanId, "LOST"]]);
    expect(await state(s.sessionId, s.spanId)).toBe("HASH_MISMATCH");

    // Recorded damage is a write like any other: the stored verdict is judged again.
    const after = await askEvidenceQuestion({ projectId: s.projectId, question: systemConfig });
    expect(after.answer).toBe("INSUFFICIENT_EVIDENCE");
    expect(after.citations).toEqual([]);
    expect(after.blockers.map((b) => [b.spanId, b.provenance])).toEqual([[s.spanId, "LOST"]]);
  });
});

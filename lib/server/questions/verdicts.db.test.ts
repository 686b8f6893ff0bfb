import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";
import { candidateSummaryFor } from "@/lib/server/gate/candidate-summary";
import { askEvidenceQuestion } from "./ask";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { updatePolicy } from "@/lib/server/retention/policy";
import { reclaim } from "@/lib/server/gate/reclaim";
import { pinOriginal, setOriginalExpiry } from "@/lib/server/provenance/operator-acts";
import { sweep } from "@/lib/server/retention/sweeper";
import { runMaintenance } from "@/lib/server/background";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { ANSWER_WINDOW } from "./window";

const systemConfig = { canned: "modified-system-config" } as const;
const DAY = 86_400_000;
const bytes = (s: string) => new TextEncoder().encode(s);

/** Two sessions: one wrote system config (seq 0), the other only talked. */
async function twoSessions(label: string, ttlSideEffectingDays = DEFAULT_POLICY.ttlDays.SIDE_EFFECTING) {
  const project = await makeTestProject(label, {
    ...DEFAULT_POLICY,
    ttlDays: { ...DEFAULT_POLICY.ttlDays, SIDE_EFFECTING: ttlSideEffectingDays },
  });
  const { session: a } = await upsertSession(project.id, {
    externalId: `${label}-a`,
    runtime: "claude-code",
    cwd: "/home/dev/app",
  });
  const { session: b } = await upsertSession(project.id, {
    externalId: `${label}-b`,
    runtime: "claude-code",
    cwd: "/home/dev/app",
  });
  const [write] = await appendSpans(project.id, a.id, [
    {
      seq: 0,
      kind: "TOOL_CALL",
      toolName: "write_file",
      occurredAt: new Date(),
      body: bytes('write_file(path="/etc/app/conf.yaml")'),
    },
    { seq: 1, kind: "MESSAGE", role: "assistant", occurredAt: new Date(), body: bytes("Done.") },
  ]);
  await appendSpans(project.id, b.id, [{ seq: 0, kind: "MESSAGE", role: "user", occurredAt: new Date(), body: bytes("Hello") }]);
  return { projectId: project.id, a: a.id, b: b.id, write: write! };
}

const version = async (sessionId: string) =>
  (await db().session.findUniqueOrThrow({ where: { id: sessionId }, select: { evidenceVersion: true } })).evidenceVersion;
// In a stable order: a Citus cluster returns rows of several shards in whatever order they come.
const verdicts = (projectId: string) =>
  db().questionVerdict.findMany({ where: { session: { projectId } }, orderBy: [{ sessionId: "asc" }, { questionKey: "asc" }] });

/** The answer judged from scratch: no stored verdict is read. */
async function judgedAfresh(projectId: string, now = new Date()) {
  await db().questionVerdict.deleteMany({ where: { session: { projectId } } });
  return askEvidenceQuestion({ projectId, question: systemConfig }, now);
}

async function reclaimWrite(s: Awaited<ReturnType<typeof twoSessions>>) {
  const summary = await candidateSummaryFor(s.a, [s.write.id], "Configured the app.", { pointers: true });
  await reclaim({
    projectId: s.projectId,
    sessionId: s.a,
    selection: { spanIds: [s.write.id] },
    summary,
    dryRun: false,
    requester: "test",
    observed: true,
  });
}

describe("stored verdicts of evidence questions", () => {
  it("are read when a question is asked again, and a session written since is judged again", async () => {
    const s = await twoSessions("verdicts-read");
    const first = await askEvidenceQuestion({ projectId: s.projectId, question: systemConfig });
    expect(first.answer).toBe("YES");
    const stored = await verdicts(s.projectId);
    expect(stored.map((v) => v.sessionId).sort()).toEqual([s.a, s.b].sort());
    for (const v of stored) expect(v.evidenceVersion).toBe(await version(v.sessionId));

    // Asking changes no version: the verdicts stay current.
    expect(await askEvidenceQuestion({ projectId: s.projectId, question: systemConfig })).toEqual(first);
    // They are really read: a verdict changed behind the engine's back shows in the answer.
    await db()
      .$executeRaw`update question_verdict set answer = jsonb_set(answer::jsonb, '{checked}', '100')::text where session_id = ${s.b}::uuid`;
    expect((await askEvidenceQuestion({ projectId: s.projectId, question: systemConfig })).checkedSpans).toBe(
      first.checkedSpans - 1 + 100,
    );

    // A span written to that session moves its version: its verdict is judged again.
    await appendSpans(s.projectId, s.b, [
      { seq: 1, kind: "TOOL_CALL", toolName: "bash", occurredAt: new Date(), body: bytes("sudo systemctl restart nginx") },
    ]);
    const after = await askEvidenceQuestion({ projectId: s.projectId, question: systemConfig });
    expect(after.checkedSpans).toBe(first.checkedSpans + 1);
    expect(after.citations.map((c) => c.sessionId)).toContain(s.b);
    expect(after).toEqual(await judgedAfresh(s.projectId));
  });

  it("go stale with every write they rest on", async () => {
    const s = await twoSessions("verdicts-writes", 30);
    const moves = async (act: () => Promise<unknown>, sessionId = s.a) => {
      const before = await version(sessionId);
      await act();
      return (await version(sessionId)) > before;
    };
    const actor = { type: "USER" as const, label: "test" };
    const ref = { projectId: s.projectId, spanId: s.write.id };
    expect(await moves(() => askEvidenceQuestion({ projectId: s.projectId, question: systemConfig }))).toBe(false);
    expect(
      await moves(() =>
        appendSpans(s.projectId, s.a, [{ seq: 2, kind: "MESSAGE", role: "user", occurredAt: new Date(), body: bytes("More.") }]),
      ),
    ).toBe(true);
    expect(await moves(() => reclaimWrite(s))).toBe(true);
    expect(await moves(() => setOriginalExpiry(ref, actor, new Date(Date.now() + 60 * DAY), "longer"))).toBe(true);
    expect(await moves(() => pinOriginal(ref, actor, "hold"))).toBe(true);
    expect(
      await moves(() =>
        upsertSession(s.projectId, { externalId: "verdicts-writes-a", runtime: "claude-code", cwd: "/srv/other" }),
      ),
    ).toBe(true);
    expect(
      await moves(() =>
        upsertSession(s.projectId, { externalId: "verdicts-writes-a", runtime: "claude-code", cwd: "/srv/other" }),
      ),
    ).toBe(false);
    await db().spanOriginal.update({
      where: { sessionId_spanId: { sessionId: s.a, spanId: s.write.id } },
      data: { pinned: false, expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await moves(() => sweep())).toBe(true);
    expect(await askEvidenceQuestion({ projectId: s.projectId, question: systemConfig })).toEqual(
      await judgedAfresh(s.projectId),
    );
  });

  it("are not read once an original of the session has passed its TTL since", async () => {
    const s = await twoSessions("verdicts-clock", 30);
    await reclaimWrite(s);
    const now = Date.now();
    const held = await askEvidenceQuestion({ projectId: s.projectId, question: systemConfig }, new Date(now));
    expect(held.answer).toBe("YES");
    const [stored] = (await verdicts(s.projectId)).filter((v) => v.sessionId === s.a);
    expect(stored!.validUntil!.getTime()).toBeGreaterThan(now + 29 * DAY);
    expect((await askEvidenceQuestion({ projectId: s.projectId, question: systemConfig }, new Date(now + DAY))).answer).toBe(
      "YES",
    );
    // Thirty-one days on, nothing was written, and the original is past its TTL (not swept yet).
    const later = await askEvidenceQuestion({ projectId: s.projectId, question: systemConfig }, new Date(now + 31 * DAY));
    expect(later.answer).toBe("INSUFFICIENT_EVIDENCE");
    expect(later.blockers.map((b) => b.spanId)).toContain(s.write.id);
    // Nor is a verdict read at a clock before the one it was judged at.
    expect((await askEvidenceQuestion({ projectId: s.projectId, question: systemConfig }, new Date(now + DAY))).answer).toBe(
      "YES",
    );
  });

  it("belong to the policy they were judged under", async () => {
    const s = await twoSessions("verdicts-policy");
    expect((await askEvidenceQuestion({ projectId: s.projectId, question: systemConfig })).answer).toBe("YES");
    const judgedBefore = await verdicts(s.projectId);
    await updatePolicy(
      s.projectId,
      { policy: { ...DEFAULT_POLICY, systemConfigPrefixes: ["/usr/"] } },
      { type: "USER", label: "test" },
      "narrower",
    );
    expect((await askEvidenceQuestion({ projectId: s.projectId, question: systemConfig })).answer).toBe("NO");
    // The sweeper forgets the verdicts no question of the new policy can read, and only those.
    const judgedAfter = (await verdicts(s.projectId)).filter((v) => !judgedBefore.some((b) => b.questionKey === v.questionKey));
    expect(judgedAfter).toHaveLength(2);
    expect((await runMaintenance()).verdictsForgotten).toBeGreaterThanOrEqual(judgedBefore.length);
    expect(await verdicts(s.projectId)).toEqual(judgedAfter);
  });

  it("keep the counts of sessions past the first page, and a session cut short is judged again where it comes first", async () => {
    const project = await makeTestProject("verdicts-cut", DEFAULT_POLICY);
    // Session a alone fills the window with its writes; b's come after it, past the first page.
    const sessionWithWrites = async (name: string, writes: number) => {
      const { session } = await upsertSession(project.id, { externalId: name, runtime: "claude-code", cwd: "/home/dev/app" });
      const spans = Array.from({ length: writes }, (_, seq) => ({
        seq,
        kind: "TOOL_CALL" as const,
        toolName: "write_file",
        occurredAt: new Date(),
        body: bytes(`write_file(path="/etc/app/${name}-${seq}.conf")`),
      }));
      for (let i = 0; i < spans.length; i += 500) await appendSpans(project.id, session.id, spans.slice(i, i + 500));
      return session.id;
    };
    const a = await sessionWithWrites("verdicts-cut-a", ANSWER_WINDOW + 20);
    const b = await sessionWithWrites("verdicts-cut-b", 30);
    const whole = { projectId: project.id, question: systemConfig };
    const first = await askEvidenceQuestion(whole);
    expect(first.citationCount).toBe(ANSWER_WINDOW + 50);
    expect(first.citations).toHaveLength(ANSWER_WINDOW);
    expect(first.citations.every((c) => c.sessionId === a)).toBe(true);
    // Both are kept, b with its counts and none of its citations: asked again, nothing is judged.
    const stored = await verdicts(project.id);
    expect(stored.map((v) => v.sessionId).sort()).toEqual([a, b].sort());
    expect(JSON.parse(stored.find((v) => v.sessionId === b)!.answer)).toMatchObject({ citationCount: 30, citations: [] });
    await db()
      .$executeRaw`update question_verdict set answer = jsonb_set(answer::jsonb, '{checked}', '7')::text where session_id = ${b}::uuid`;
    const again = await askEvidenceQuestion(whole);
    expect(again.checkedSpans).toBe(first.checkedSpans - 30 + 7);
    // Asked alone, b needs its citations, which its verdict lacks: it is judged again, and kept whole.
    const alone = await askEvidenceQuestion({ ...whole, scope: { sessionIds: [b] } });
    expect(alone.citations).toHaveLength(30);
    expect(alone.checkedSpans).toBe(30);
    expect(JSON.parse((await verdicts(project.id)).find((v) => v.sessionId === b)!.answer).citations).toHaveLength(30);
    await db().questionVerdict.deleteMany({ where: { session: { projectId: project.id } } });
    expect(alone).toEqual(await askEvidenceQuestion({ ...whole, scope: { sessionIds: [b] } }));
    expect(await askEvidenceQuestion(whole)).toEqual(first);
  });
});

import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";
import type { RetentionPolicy } from "@/lib/evidence/types";
import { candidateSummaryFor } from "@/lib/server/gate/candidate-summary";
import { askEvidenceQuestion } from "./ask";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { reclaim } from "@/lib/server/gate/reclaim";
import { sweep } from "@/lib/server/retention/sweeper";
import { makeTestProject } from "@/lib/server/admin/test-project";

const SEED_BODY = 'write_file(path="/etc/app/conf.yaml", mode="overwrite")';
const SEED_SUMMARY = "The agent configured the application's YAML configuration.";
const systemConfig = { canned: "modified-system-config" } as const;

/** A session with the seed's write at seq 0 and a chat message at seq 1. */
async function seedScenario(label: string, policy: RetentionPolicy = DEFAULT_POLICY) {
  const project = await makeTestProject(label, policy);
  const { session } = await upsertSession(project.id, { externalId: label, runtime: "claude-code", cwd: "/home/dev/app" });
  const spans = await appendSpans(project.id, session.id, [
    { seq: 0, kind: "TOOL_CALL", toolName: "write_file", occurredAt: new Date(), body: new TextEncoder().encode(SEED_BODY) },
    {
      seq: 1,
      kind: "MESSAGE",
      role: "assistant",
      occurredAt: new Date(),
      body: new TextEncoder().encode("Done, the config is in place."),
    },
  ]);
  return { projectId: project.id, sessionId: session.id, write: spans[0]! };
}

async function compact(
  s: Awaited<ReturnType<typeof seedScenario>>,
  options: { pointers: boolean; observed?: boolean; text?: string; honest?: boolean },
) {
  const summary = await candidateSummaryFor(s.sessionId, [s.write.id], options.text ?? SEED_SUMMARY, options);
  return reclaim({
    projectId: s.projectId,
    sessionId: s.sessionId,
    selection: { spanIds: [s.write.id] },
    summary,
    dryRun: false,
    requester: "test",
    observed: options.observed,
  });
}

/** Sweeps the write's original as its TTL would: expire it, then run the real sweeper. */
async function loseOriginal(s: { sessionId: string; write: { id: string } }) {
  await db().spanOriginal.update({
    where: { sessionId_spanId: { sessionId: s.sessionId, spanId: s.write.id } },
    data: { expiresAt: new Date(Date.now() - 1000) },
  });
  await sweep();
}

describe("the seed's question at every provenance state, through the stored path", () => {
  it("DURABLE: YES with the exact bytes of the path, verbatim and after a reclamation with a pointer", async () => {
    const s = await seedScenario("ev-durable");
    const verbatim = await askEvidenceQuestion({ projectId: s.projectId, question: systemConfig });
    expect(verbatim.answer).toBe("YES");
    const citation = verbatim.citations.find((c) => c.excerpt === "/etc/app/conf.yaml")!;
    expect(citation.byteStart).toBe(SEED_BODY.indexOf("/etc/app/conf.yaml"));
    expect(citation.byteEnd).toBe(citation.byteStart + "/etc/app/conf.yaml".length);
    expect(citation.sha256).toBe(s.write.sha256);

    const outcome = await compact(s, { pointers: true });
    expect(outcome.decisions[0]).toMatchObject({ verdict: "RECLAIM", cell: { class: "SIDE_EFFECTING", provenance: "DURABLE" } });
    expect((await askEvidenceQuestion({ projectId: s.projectId, question: systemConfig })).answer).toBe("YES");
  });

  it("EXPIRING: still YES while the original is held", async () => {
    const s = await seedScenario("ev-expiring", {
      ...DEFAULT_POLICY,
      ttlDays: { ...DEFAULT_POLICY.ttlDays, SIDE_EFFECTING: 30 },
    });
    const outcome = await compact(s, { pointers: true, observed: true });
    expect(outcome.decisions[0]!.cell.provenance).toBe("EXPIRING");
    const answer = await askEvidenceQuestion({ projectId: s.projectId, question: systemConfig });
    expect(answer.answer).toBe("YES");
    expect(new TextDecoder().decode(answer.citations[0]!.bytes)).toBe("/etc/app/conf.yaml");
  });

  it("LOST: INSUFFICIENT_EVIDENCE naming the span, and never YES from the summary's text", async () => {
    const s = await seedScenario("ev-lost");
    await compact(s, { pointers: true, text: "Wrote /etc/app/conf.yaml with the staging settings." });
    await loseOriginal(s);
    const answer = await askEvidenceQuestion({ projectId: s.projectId, question: systemConfig });
    expect(answer.answer).toBe("INSUFFICIENT_EVIDENCE");
    expect(answer.citations).toEqual([]);
    expect(answer.blockers.map((b) => b.spanId)).toContain(s.write.id);
    expect(answer.blockers.find((b) => b.spanId === s.write.id)).toMatchObject({
      provenance: "LOST",
      originalHeld: false,
      unblockBy: "none",
    });
  });

  it("NONE: a summary without a pointer blocks, even though Custodian still holds the bytes", async () => {
    const s = await seedScenario("ev-none");
    await compact(s, { pointers: false, observed: true });
    const answer = await askEvidenceQuestion({ projectId: s.projectId, question: systemConfig });
    expect(answer.answer).toBe("INSUFFICIENT_EVIDENCE");
    expect(answer.blockers.find((b) => b.spanId === s.write.id)).toMatchObject({ provenance: "NONE", originalHeld: true });
  });
});

describe("other answers", () => {
  it("NO over a complete scope; negations are not writes; a seq gap makes it INSUFFICIENT", async () => {
    const project = await makeTestProject("ev-no");
    const { session } = await upsertSession(project.id, { externalId: "no", runtime: "claude-code", cwd: "/home/dev/app" });
    const say = (seq: number, text: string) => ({
      seq,
      kind: "MESSAGE" as const,
      occurredAt: new Date(),
      body: new TextEncoder().encode(text),
    });
    await appendSpans(project.id, session.id, [
      say(0, "I did not write /etc/hosts."),
      say(1, "Read /etc/hosts, it has 12 lines."),
    ]);
    const no = await askEvidenceQuestion({ projectId: project.id, question: systemConfig });
    expect(no).toMatchObject({ answer: "NO", scopeComplete: true, citations: [], blockers: [] });

    await appendSpans(project.id, session.id, [say(3, "Carrying on.")]);
    const gap = await askEvidenceQuestion({ projectId: project.id, question: systemConfig });
    expect(gap.answer).toBe("INSUFFICIENT_EVIDENCE");
    expect(gap.gaps).toEqual([{ sessionId: session.id, fromSeq: 2, toSeq: 2 }]);
  });

  it("an honest summary that dropped a path blocks a path question; one that dropped only numbers does not", async () => {
    const pathQuestion = { predicate: { atomKinds: ["PATH" as const], valuePrefixes: ["/etc/"] } };
    async function honestThenLost(label: string, text: string) {
      // Structured originals expire before the horizon here, so only an honest summary may replace them.
      const project = await makeTestProject(label, { ...DEFAULT_POLICY, ttlDays: { ...DEFAULT_POLICY.ttlDays, STRUCTURED: 30 } });
      const { session } = await upsertSession(project.id, { externalId: label, runtime: "claude-code", cwd: "/srv/app" });
      const [span] = await appendSpans(project.id, session.id, [
        {
          seq: 0,
          kind: "TOOL_RESULT",
          occurredAt: new Date(),
          body: new TextEncoder().encode("Copied 52 files to /srv/app/out in 3.2 s"),
        },
      ]);
      const s = { projectId: project.id, sessionId: session.id, write: span! };
      const outcome = await compact(s, { pointers: true, honest: true, text });
      expect(outcome.decisions[0]!.verdict).toBe("RECLAIM_HONEST");
      await loseOriginal(s);
      return askEvidenceQuestion({ projectId: project.id, question: pathQuestion });
    }
    const droppedPath = await honestThenLost("ev-honest-path", "Copied the build output.");
    expect(droppedPath.answer).toBe("INSUFFICIENT_EVIDENCE");
    expect(droppedPath.blockers[0]!.dropped.map((d) => d.kind)).toContain("PATH");
    const droppedNumbers = await honestThenLost("ev-honest-numbers", "Copied files to /srv/app/out.");
    expect(droppedNumbers.answer).toBe("NO");
  });

  it("scope: one session, and a time range holding no spans (never NO over an empty scope)", async () => {
    const a = await seedScenario("ev-scope");
    const { session: other } = await upsertSession(a.projectId, { externalId: "other", runtime: "codex" });
    await appendSpans(a.projectId, other.id, [
      { seq: 0, kind: "MESSAGE", occurredAt: new Date(), body: new TextEncoder().encode("hello") },
    ]);
    expect(
      (await askEvidenceQuestion({ projectId: a.projectId, question: systemConfig, scope: { sessionIds: [other.id] } })).answer,
    ).toBe("NO");
    expect(
      (await askEvidenceQuestion({ projectId: a.projectId, question: systemConfig, scope: { sessionIds: [a.sessionId] } }))
        .answer,
    ).toBe("YES");
    const past = await askEvidenceQuestion({
      projectId: a.projectId,
      question: systemConfig,
      scope: { to: new Date(Date.now() - 86_400_000) },
    });
    expect(past).toMatchObject({ answer: "INSUFFICIENT_EVIDENCE", noSpansInScope: true, scopeComplete: false });
    await expect(
      askEvidenceQuestion({ projectId: a.projectId, question: systemConfig, scope: { sessionIds: ["not-a-uuid"] } }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("within a time range, reads the sessions with any span in it: a summary alone in the range still blocks", async () => {
    const day = 86_400_000;
    const project = await makeTestProject("ev-range-reads");
    const yearAgo = new Date(Date.now() - 365 * day);
    const body = (text: string) => new TextEncoder().encode(text);
    // A write to /etc a year ago, replaced now by a summary that names the path and keeps no pointer:
    // the session's only span in the last week is that summary.
    const { session: compacted } = await upsertSession(project.id, { externalId: "compacted-now", runtime: "claude-code" });
    const [write] = await appendSpans(project.id, compacted.id, [
      { seq: 0, kind: "TOOL_CALL", toolName: "write_file", occurredAt: yearAgo, body: body(SEED_BODY) },
    ]);
    const summary = await candidateSummaryFor(compacted.id, [write!.id], "Wrote /etc/app/conf.yaml with the staging settings.", {
      pointers: false,
    });
    const { summarySpanId } = await reclaim({
      projectId: project.id,
      sessionId: compacted.id,
      selection: { spanIds: [write!.id] },
      summary,
      dryRun: false,
      requester: "test",
      observed: true,
    });
    // Another session's write to /etc, a year ago and nothing since: outside the range, it cites nothing.
    const { session: old } = await upsertSession(project.id, { externalId: "last-year", runtime: "claude-code" });
    await appendSpans(project.id, old.id, [
      { seq: 0, kind: "TOOL_CALL", toolName: "write_file", occurredAt: yearAgo, body: body(SEED_BODY) },
    ]);
    const week = await askEvidenceQuestion({
      projectId: project.id,
      question: systemConfig,
      scope: { from: new Date(Date.now() - 7 * day) },
    });
    expect(week).toMatchObject({ answer: "INSUFFICIENT_EVIDENCE", citations: [], sessionsInScope: 1 });
    expect(week.blockers.map((b) => b.spanId)).toEqual([summarySpanId]);
    // The year holds both writes: the old session's cites.
    const year = await askEvidenceQuestion({
      projectId: project.id,
      question: systemConfig,
      scope: { from: new Date(Date.now() - 400 * day) },
    });
    expect(year.answer).toBe("YES");
    expect(year.citations.map((c) => c.sessionId)).toEqual([old.id]);
  });

  it("counts in sessionsInScope only the sessions with spans in the time range", async () => {
    const a = await seedScenario("ev-sessions-in-range");
    const day = 86_400_000;
    const { session: old } = await upsertSession(a.projectId, { externalId: "last-year", runtime: "codex" });
    await appendSpans(a.projectId, old.id, [
      { seq: 0, kind: "MESSAGE", occurredAt: new Date(Date.now() - 365 * day), body: new TextEncoder().encode("hello") },
    ]);
    // One the range cuts: a span a month ago, one now (only that one is checked in the last week).
    const { session: cut } = await upsertSession(a.projectId, { externalId: "month-long", runtime: "codex" });
    await appendSpans(a.projectId, cut.id, [
      { seq: 0, kind: "MESSAGE", occurredAt: new Date(Date.now() - 30 * day), body: new TextEncoder().encode("hello") },
      { seq: 1, kind: "MESSAGE", occurredAt: new Date(), body: new TextEncoder().encode("again") },
    ]);
    await upsertSession(a.projectId, { externalId: "no-spans-yet", runtime: "codex" });
    const week = await askEvidenceQuestion({
      projectId: a.projectId,
      question: systemConfig,
      scope: { from: new Date(Date.now() - 7 * day), to: new Date(Date.now() + day) },
    });
    expect(week).toMatchObject({ answer: "YES", checkedSpans: 3, sessionsInScope: 2 });
    // Without a range every session with a span counts; one with none has nothing to check.
    const always = await askEvidenceQuestion({ projectId: a.projectId, question: systemConfig });
    expect(always).toMatchObject({ checkedSpans: 5, sessionsInScope: 3 });
    const none = await askEvidenceQuestion({
      projectId: a.projectId,
      question: systemConfig,
      scope: { to: new Date(Date.now() - 400 * day) },
    });
    expect(none).toMatchObject({ noSpansInScope: true, sessionsInScope: 0 });
  });
});

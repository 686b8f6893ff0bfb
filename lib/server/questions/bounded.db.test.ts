import { describe, expect, it } from "vitest";
import { candidateSummaryFor } from "@/lib/server/gate/candidate-summary";
import { reclaim } from "@/lib/server/gate/reclaim";
import { appendSpans, upsertSession, type SpanSubmission } from "@/lib/server/ingest/append";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { askEvidenceQuestion, type QuestionProgress } from "./ask";

const encode = (text: string) => new TextEncoder().encode(text);

/** The spans replaced by a summary that carries no pointer to them, as a compactor observed doing it: they block. */
async function replaceWithoutPointers(projectId: string, sessionId: string, spanIds: string[]) {
  const summary = await candidateSummaryFor(sessionId, spanIds, "Copied the configuration.", { pointers: false });
  await reclaim({ projectId, sessionId, selection: { spanIds }, summary, dryRun: false, requester: "test", observed: true });
}

/**
 * Two sessions, each with calls writing under /etc/app/ (some failed, each followed by its result)
 * and some of those writes reclaimed without pointers, so they block.
 */
async function scenario() {
  const project = await makeTestProject("bounded-questions");
  const sessions: string[] = [];
  for (const label of ["first", "second"]) {
    const { session } = await upsertSession(project.id, { externalId: label, runtime: "claude-code", cwd: "/home/dev/app" });
    const spans: SpanSubmission[] = [];
    for (let i = 0; i < 12; i++) {
      const command = `cp build/app.conf /etc/app/conf-${label}-${i}.yaml`;
      spans.push({
        seq: 2 * i,
        kind: "TOOL_CALL",
        toolName: "Bash",
        toolInput: { command },
        outcome: i % 3 === 0 ? "FAILED" : "SUCCEEDED",
        occurredAt: new Date(Date.UTC(2026, 10, 20, 8, 0, i)),
        body: encode(JSON.stringify({ command })),
      });
      spans.push({
        seq: 2 * i + 1,
        kind: "TOOL_RESULT",
        outcome: i % 3 === 0 ? "FAILED" : "SUCCEEDED",
        exitCode: i % 3 === 0 ? 1 : 0,
        occurredAt: new Date(Date.UTC(2026, 10, 20, 8, 0, i)),
        body: encode(i % 3 === 0 ? "cp: /etc/app: Permission denied" : ""),
      });
    }
    const written = await appendSpans(project.id, session.id, spans);
    await replaceWithoutPointers(project.id, session.id, [written[8]!.id, written[14]!.id, written[20]!.id]);
    sessions.push(session.id);
  }
  return { projectId: project.id, sessions };
}

describe("an evidence question's memory is bounded", () => {
  it("keeps the first citations and blockers up to its window, counts all of them, and tallies every attempt", async () => {
    const s = await scenario();
    const question = { predicate: { valuePrefixes: ["/etc/app/"] } };
    const full = await askEvidenceQuestion({ projectId: s.projectId, question });
    expect(full.answer).toBe("YES");
    expect(full.citationCount).toBe(full.citations.length);
    expect(full.blockerCount).toBe(full.blockers.length);
    expect(full.blockers.length).toBeGreaterThanOrEqual(6);
    expect(full.outcomes.FAILED).toBeGreaterThan(0);

    const progress: QuestionProgress[] = [];
    const cut = await askEvidenceQuestion({ projectId: s.projectId, question }, new Date(), {
      window: 3,
      batchSpans: 2,
      onProgress: (p) => progress.push(p),
    });
    expect(cut.citations).toEqual(full.citations.slice(0, 3));
    expect(cut.blockers).toEqual(full.blockers.slice(0, 3));
    expect([cut.answer, cut.citationCount, cut.blockerCount, cut.outcomes]).toEqual([
      full.answer,
      full.citationCount,
      full.blockerCount,
      full.outcomes,
    ]);
    // Candidates were judged a batch of 2 spans at a time, every batch reported.
    expect(progress.length).toBeGreaterThanOrEqual(5);
    expect(progress.map((p) => p.candidateSpans)).toEqual([...progress.map((p) => p.candidateSpans)].sort((a, b) => a - b));
  });

  it("a window over several sessions is the first items of the first sessions", async () => {
    const s = await scenario();
    const question = { predicate: { valuePrefixes: ["/etc/app/"] } };
    const full = await askEvidenceQuestion({ projectId: s.projectId, question });
    const perSession = full.citations.filter((c) => c.sessionId === s.sessions[0]).length;
    const cut = await askEvidenceQuestion({ projectId: s.projectId, question }, new Date(), { window: perSession + 2 });
    expect(cut.citations).toEqual(full.citations.slice(0, perSession + 2));
    expect(cut.citations.at(-1)!.sessionId).toBe(s.sessions[1]);
  });
});

describe("a window shared by both kinds of counted blocker", () => {
  /**
   * Two sessions whose calls of a tool with unknown effects interleave with reclaimed writes under
   * /etc/app/ that have no pointer: each kind is counted and read on its own, and the window must
   * still keep the first blockers of both in the engine's order.
   */
  async function interleaved() {
    const project = await makeTestProject("bounded-both-kinds");
    for (const label of ["first", "second"]) {
      const { session } = await upsertSession(project.id, { externalId: label, runtime: "claude-code", cwd: "/home/dev/app" });
      const spans: SpanSubmission[] = [];
      for (let i = 0; i < 6; i++) {
        const at = new Date(Date.UTC(2026, 10, 20, 8, 0, i));
        const query = { libraryName: `lib-${label}-${i}` };
        const command = `cp build/app.conf /etc/app/conf-${label}-${i}.yaml`;
        spans.push(
          {
            seq: 2 * i,
            kind: "TOOL_CALL",
            toolName: "mcp__context7__resolve-library-id",
            toolInput: query,
            occurredAt: at,
            body: encode(JSON.stringify(query)),
          },
          {
            seq: 2 * i + 1,
            kind: "TOOL_CALL",
            toolName: "Bash",
            toolInput: { command },
            outcome: "SUCCEEDED",
            occurredAt: at,
            body: encode(JSON.stringify({ command })),
          },
        );
      }
      const written = await appendSpans(project.id, session.id, spans);
      await replaceWithoutPointers(
        project.id,
        session.id,
        written.filter((_, i) => i % 2 === 1).map((w) => w.id),
      );
    }
    return project.id;
  }

  it("keeps the first blockers of both kinds at every window size", async () => {
    const projectId = await interleaved();
    const question = { canned: "modified-system-config" };
    const full = await askEvidenceQuestion({ projectId, question });
    expect(full.answer).toBe("INSUFFICIENT_EVIDENCE");
    expect(full.blockers.some((b) => b.unknownEffect)).toBe(true);
    expect(full.blockers.some((b) => !b.unknownEffect)).toBe(true);
    for (const window of [1, 2, 3, 7, 13, 20]) {
      const cut = await askEvidenceQuestion({ projectId, question }, new Date(), { window });
      expect(
        cut.blockers.map((b) => [b.sessionId, b.seq]),
        `window ${window}`,
      ).toEqual(full.blockers.slice(0, window).map((b) => [b.sessionId, b.seq]));
      expect(cut.blockerCount).toBe(full.blockerCount);
    }
  });
});

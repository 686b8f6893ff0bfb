import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";
import { closeInterruptedJobs, runMaintenance } from "@/lib/server/background";
import { candidateSummaryFor } from "@/lib/server/gate/candidate-summary";
import { reclaim } from "@/lib/server/gate/reclaim";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { sweep } from "@/lib/server/retention/sweeper";
import { askEvidenceQuestion } from "./ask";
import { answerOrQueue } from "./answer-or-queue";
import {
  INTERRUPTED_QUESTION_MESSAGE,
  OUTDATED_ANSWER_MESSAGE,
  QUESTION_JOB_ABANDONED_AFTER_MS,
  type QuestionJobJson,
  readQuestionJob,
} from "./jobs";

type Status = "RUNNING" | "DONE" | "FAILED";

/** A job row as a server left it, last touched `ageMs` before `now`. */
async function jobAt(projectId: string, status: Status, now: Date, ageMs: number) {
  const id = randomUUID();
  const at = new Date(now.getTime() - ageMs);
  await db().$executeRaw`
    insert into question_job (id, project_id, status, requester, created_at, updated_at)
    values (${id}::uuid, ${projectId}::uuid, ${status}::"ImportStatus", 'test', ${at}, ${at})`;
  return id;
}

async function statusOf(id: string) {
  return db().questionJob.findUnique({ where: { id }, select: { status: true, error: true } });
}

const HOUR = 60 * 60_000;

describe("question jobs' upkeep", () => {
  it("the maintenance round deletes jobs finished more than a day ago, and keeps newer and running ones", async () => {
    const project = await makeTestProject("question-jobs-upkeep");
    const now = new Date();
    const oldDone = await jobAt(project.id, "DONE", now, 25 * HOUR);
    const oldFailed = await jobAt(project.id, "FAILED", now, 25 * HOUR);
    const newDone = await jobAt(project.id, "DONE", now, 23 * HOUR);
    const newFailed = await jobAt(project.id, "FAILED", now, HOUR);

    const result = await runMaintenance(now);

    expect(result.questionJobsForgotten).toBeGreaterThanOrEqual(2);
    expect(await statusOf(oldDone)).toBeNull();
    expect(await statusOf(oldFailed)).toBeNull();
    expect(await statusOf(newDone)).toMatchObject({ status: "DONE" });
    expect(await statusOf(newFailed)).toMatchObject({ status: "FAILED" });
  });

  it("at start, jobs a stopped server left running are failed with a reason; jobs still beating are left alone", async () => {
    const project = await makeTestProject("question-jobs-start");
    const now = new Date();
    const abandoned = await jobAt(project.id, "RUNNING", now, QUESTION_JOB_ABANDONED_AFTER_MS + 1_000);
    const beating = await jobAt(project.id, "RUNNING", now, 1_000);
    const answered = await jobAt(project.id, "DONE", now, QUESTION_JOB_ABANDONED_AFTER_MS + 1_000);

    await closeInterruptedJobs(now);

    expect(await statusOf(abandoned)).toEqual({ status: "FAILED", error: INTERRUPTED_QUESTION_MESSAGE });
    expect(await statusOf(beating)).toEqual({ status: "RUNNING", error: null });
    expect(await statusOf(answered)).toEqual({ status: "DONE", error: null });
  });

  it("a job left running long ago is not deleted as finished, but failed first and kept a day for its reader", async () => {
    const project = await makeTestProject("question-jobs-stale");
    const now = new Date();
    const stale = await jobAt(project.id, "RUNNING", now, 3 * 24 * HOUR);

    const result = await runMaintenance(now);

    expect(result.questionJobsInterrupted).toBeGreaterThanOrEqual(1);
    expect(await statusOf(stale)).toEqual({ status: "FAILED", error: INTERRUPTED_QUESTION_MESSAGE });
  });
});

describe("a question job's answer", () => {
  it("keeps each blocker's dropped kinds, whether its original is held and what unblocks it, as the answer has them", async () => {
    // Structured originals expire before the horizon here, so only an honest summary may replace them.
    const project = await makeTestProject("question-job-blockers", {
      ...DEFAULT_POLICY,
      ttlDays: { ...DEFAULT_POLICY.ttlDays, STRUCTURED: 30 },
    });
    /** A session whose only span an honest summary replaced, dropping its path; its original's TTL then passed. */
    async function honestlyReplaced(label: string) {
      const { session } = await upsertSession(project.id, { externalId: label, runtime: "claude-code", cwd: "/srv/app" });
      const [span] = await appendSpans(project.id, session.id, [
        {
          seq: 0,
          kind: "TOOL_RESULT",
          occurredAt: new Date(),
          body: new TextEncoder().encode("Copied 52 files to /srv/app/out"),
        },
      ]);
      const summary = await candidateSummaryFor(session.id, [span!.id], "Copied the build output.", {
        pointers: true,
        honest: true,
      });
      const outcome = await reclaim({
        projectId: project.id,
        sessionId: session.id,
        selection: { spanIds: [span!.id] },
        summary,
        dryRun: false,
        requester: "test",
      });
      expect(outcome.decisions[0]!.verdict).toBe("RECLAIM_HONEST");
      await db().spanOriginal.update({
        where: { sessionId_spanId: { sessionId: session.id, spanId: span!.id } },
        data: { expiresAt: new Date(Date.now() - 1000) },
      });
      return span!.id;
    }
    const lost = await honestlyReplaced("swept");
    await sweep();
    const held = await honestlyReplaced("not-yet-swept");

    const input = { projectId: project.id, question: { predicate: { atomKinds: ["PATH" as const], valuePrefixes: ["/srv/"] } } };
    const asked = await answerOrQueue(input, "asker@example.com", { withinMs: 0 });
    expect("job" in asked).toBe(true);
    let job = (asked as { job: QuestionJobJson }).job;
    for (let i = 0; i < 300 && job.status === "RUNNING"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      job = await readQuestionJob(project.id, job.id);
    }
    expect(job).toMatchObject({ status: "DONE", error: null });

    const direct = await askEvidenceQuestion(input);
    expect(direct.answer).toBe("INSUFFICIENT_EVIDENCE");
    const fates = (blockers: ReadonlyArray<{ spanId: string; dropped: unknown; originalHeld: boolean; unblockBy: string }>) =>
      blockers.map((b) => ({ spanId: b.spanId, dropped: b.dropped, originalHeld: b.originalHeld, unblockBy: b.unblockBy }));
    expect(fates(job.answer!.blockers)).toEqual(fates(direct.blockers));
    expect(job.answer!.blockers.find((b) => b.spanId === held)).toMatchObject({ originalHeld: true, unblockBy: "pin" });
    expect(job.answer!.blockers.find((b) => b.spanId === lost)).toMatchObject({ originalHeld: false, unblockBy: "none" });
    for (const b of job.answer!.blockers) expect(b.dropped.map((d) => d.kind)).toContain("PATH");
  });
});

describe("a question job kept in an earlier form", () => {
  it("reads back as done with no answer and an error asking to ask again, whoever polls it", async () => {
    const project = await makeTestProject("question-job-outdated");
    // As jobs stored their answers before one presenter: the page's shape (no pages, no base64) and the API's (no pages).
    const pageShape = { question: { title: "t" }, answer: "YES", citationCount: 0, blockerCount: 0, citations: [], blockers: [] };
    const apiShape = { ...pageShape, question: { id: "custom", title: "t" }, gaps: [], checkedSpans: 0, scopeComplete: true };
    for (const answer of [pageShape, apiShape, "YES", null]) {
      const job = await db().questionJob.create({
        data: { id: randomUUID(), projectId: project.id, requester: "test", status: "DONE", answer: answer ?? undefined },
      });
      expect(await readQuestionJob(project.id, job.id)).toMatchObject({
        status: "DONE",
        answer: null,
        error: OUTDATED_ANSWER_MESSAGE,
      });
    }
  });
});

import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { closeInterruptedJobs, runMaintenance } from "@/lib/server/background";
import { INTERRUPTED_QUESTION_MESSAGE, QUESTION_JOB_ABANDONED_AFTER_MS } from "./jobs";

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

/**
 * The overview's sessions at risk and with evidence lost are the sessions list's, in the same range:
 * its figures link to the list with that range, and the list shows as many sessions as they say.
 */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { listSessionPage } from "@/lib/server/dashboard";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { projectOverview } from "./overview";

const DAY_MS = 86_400_000;

/** A session whose one write happened `daysAgo`, its original expiring tomorrow (at risk), or gone. */
async function session(projectId: string, label: string, daysAgo: number, state: "at-risk" | "lost") {
  const { session } = await upsertSession(projectId, { externalId: label, runtime: "test", title: label });
  const body = new TextEncoder().encode(JSON.stringify({ path: `/etc/app/${label}.yaml`, content: "x" }));
  const [span] = await appendSpans(projectId, session.id, [
    { seq: 0, kind: "TOOL_CALL", toolName: "write_file", occurredAt: new Date(Date.now() - daysAgo * DAY_MS), body },
  ]);
  await db().spanOriginal.update({
    where: { sessionId_spanId: { sessionId: session.id, spanId: span!.id } },
    data: state === "at-risk" ? { expiresAt: new Date(Date.now() + DAY_MS) } : { bytes: null },
  });
}

describe("the overview's sessions at risk and with evidence lost", () => {
  it("count, in each range, the sessions the list shows for the same range and state", async () => {
    const project = await makeTestProject("overview-list-agree");
    await session(project.id, "recent-risk", 1, "at-risk");
    await session(project.id, "older-risk", 20, "at-risk");
    await session(project.id, "recent-lost", 2, "lost");
    await session(project.id, "older-lost", 40, "lost");
    const list = async (state: string, range: Record<string, string>) =>
      (await listSessionPage(project.id, { state, ...range })).total;
    const day = (ago: number) => new Date(Date.now() - ago * DAY_MS).toISOString().slice(0, 10);

    const expected = [
      [{ range: "7d" }, 1, 1],
      [{ range: "30d" }, 2, 1],
      [{ range: "90d" }, 2, 2],
      [{ from: day(25), to: day(15) }, 1, 0],
    ] as const;
    for (const [range, atRisk, lost] of expected) {
      const o = await projectOverview(project.id, "range" in range ? { range: range.range } : { range: "7d", days: range });
      expect({ range, atRisk: o.atRisk.sessions, lost: o.lostNow.sessions }).toEqual({ range, atRisk, lost });
      expect(await list("at-risk", range)).toBe(atRisk);
      expect(await list("lost", range)).toBe(lost);
    }
    expect((await projectOverview(project.id, { range: "30d" })).atRisk.spans).toBe(2);
  });
});

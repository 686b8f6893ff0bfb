import { describe, expect, it } from "vitest";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { reclaim } from "@/lib/server/gate/reclaim";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { unreclaimedRange } from "./gate-range";

/** A session of ten chat messages (all reclaimable), with the given seq ranges reclaimed. */
async function session(reclaimed: Array<[number, number]>) {
  const project = await makeTestProject("gate-range");
  const { session } = await upsertSession(project.id, { externalId: "range", runtime: "claude-code" });
  await appendSpans(
    project.id,
    session.id,
    Array.from({ length: 10 }, (_, seq) => ({
      seq,
      kind: "MESSAGE" as const,
      occurredAt: new Date(),
      body: new TextEncoder().encode(`Thinking about step ${seq}.`),
    })),
  );
  for (const [fromSeq, toSeq] of reclaimed) {
    const outcome = await reclaim({
      projectId: project.id,
      sessionId: session.id,
      selection: { fromSeq, toSeq },
      summary: { text: "The agent thought.", pointers: [] },
      dryRun: false,
      requester: "test",
    });
    expect(outcome.decisions.every((d) => d.verdict === "RECLAIM")).toBe(true);
  }
  return { projectId: project.id, sessionId: session.id };
}

describe("the gate form's starting range", () => {
  it("is the whole transcript while nothing is reclaimed", async () => {
    expect(await unreclaimedRange((await session([])).sessionId)).toEqual({ fromSeq: 0, toSeq: 9 });
  });

  it("starts after a reclaimed head and stops before the next reclaimed span", async () => {
    expect(await unreclaimedRange((await session([[0, 3]])).sessionId)).toEqual({ fromSeq: 4, toSeq: 9 });
    expect(await unreclaimedRange((await session([[4, 5]])).sessionId)).toEqual({ fromSeq: 0, toSeq: 3 });
  });

  it("is a range the gate takes: a recorded run over it is not refused as already reclaimed", async () => {
    const { projectId, sessionId } = await session([
      [0, 2],
      [6, 7],
    ]);
    const range = await unreclaimedRange(sessionId);
    expect(range).toEqual({ fromSeq: 3, toSeq: 5 });
    const outcome = await reclaim({
      projectId,
      sessionId,
      selection: range!,
      summary: { text: "More thinking.", pointers: [] },
      dryRun: true,
      requester: "test",
    });
    expect(outcome.decisions).toHaveLength(3);
  });

  it("is none once every span is reclaimed", async () => {
    expect(await unreclaimedRange((await session([[0, 9]])).sessionId)).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { appendSpans, upsertSession, type SpanSubmission } from "@/lib/server/ingest/append";
import { sessionGrid, timelineCount } from "@/lib/server/provenance";
import { loadPolicy } from "@/lib/server/retention";
import { cellOriginals, getSessionOverview, sessionAgents, sessionSkippedRecords } from "./session-detail";

const encode = (text: string) => new TextEncoder().encode(text);

interface Planned {
  seq: number;
  agentId: string | null;
  outcome: ToolOutcome | null;
}

/**
 * A transcript of 30 spans: the main agent's calls and results, two subagents' ones (seq 10-19
 * "explorer-1", 20-24 "planner-2"), a message every third span; outcomes vary by call.
 */
function plannedSpans(): Planned[] {
  const outcomes: ToolOutcome[] = ["SUCCEEDED", "FAILED", "DECLINED", "NOT_RUN", "UNKNOWN"];
  return Array.from({ length: 30 }, (_, seq) => ({
    seq,
    agentId: seq >= 10 && seq < 20 ? "explorer-1" : seq >= 20 && seq < 25 ? "planner-2" : null,
    outcome: seq % 3 === 2 ? null : outcomes[Math.floor(seq / 3) % outcomes.length]!,
  }));
}

async function seedSession() {
  const project = await makeTestProject("timeline-filters");
  const { session } = await upsertSession(project.id, { externalId: "filters", runtime: "claude-code", cwd: "/home/dev" });
  const planned = plannedSpans();
  const submissions: SpanSubmission[] = planned.map((p) => ({
    seq: p.seq,
    kind: p.outcome === null ? "MESSAGE" : p.seq % 3 === 0 ? "TOOL_CALL" : "TOOL_RESULT",
    toolName: p.outcome === null ? null : "Bash",
    body: encode(p.outcome === null ? `note ${p.seq}` : `{"command":"ls /tmp/${p.seq}"}`),
    occurredAt: new Date(Date.UTC(2026, 11, 1, 0, 0, p.seq)),
    outcome: p.outcome,
    exitCode: p.outcome === "FAILED" ? 2 : p.outcome === "SUCCEEDED" ? 0 : null,
    agentId: p.agentId,
    agentType: p.agentId === "explorer-1" ? "Explore" : p.agentId === "planner-2" ? "Plan" : null,
    sourceLine: p.seq + 1,
  }));
  const ingested = await appendSpans(project.id, session.id, submissions);
  return { project, session, planned, idOf: new Map(ingested.map((s) => [s.seq, s.id])) };
}

describe("the session page's transcript filters", () => {
  it("narrow the transcript to one agent, to call outcomes, or both, in order, with the right totals", async () => {
    const { session, planned, idOf } = await seedSession();
    const expectSeqs = (spans: Array<{ seq: number | null }>, keep: (p: Planned) => boolean) =>
      expect(spans.map((s) => s.seq)).toEqual(planned.filter(keep).map((p) => p.seq));

    const all = await getSessionOverview(session.projectId, session.id);
    expect(all.total).toBe(30);
    expect(all.spans).toHaveLength(30);
    const call = all.spans.find((s) => s.seq === 3)!;
    expect(call).toMatchObject({ id: idOf.get(3), kind: "TOOL_CALL", outcome: "FAILED", exitCode: 2, agentId: null });
    expect(all.spans.find((s) => s.seq === 12)).toMatchObject({ agentId: "explorer-1", agentType: "Explore" });

    const main = await getSessionOverview(session.projectId, session.id, { agentId: null });
    expectSeqs(main.spans, (p) => p.agentId === null);
    expect(main.total).toBe(15);

    const explorer = await getSessionOverview(session.projectId, session.id, { agentId: "explorer-1" });
    expectSeqs(explorer.spans, (p) => p.agentId === "explorer-1");
    expect(explorer.total).toBe(10);

    const failed = await getSessionOverview(session.projectId, session.id, { outcomes: ["FAILED", "UNKNOWN"] });
    expectSeqs(failed.spans, (p) => p.outcome === "FAILED" || p.outcome === "UNKNOWN");
    expect(failed.total).toBe(planned.filter((p) => p.outcome === "FAILED" || p.outcome === "UNKNOWN").length);
    expect(failed.spans.every((s) => s.outcome === "FAILED" || s.outcome === "UNKNOWN")).toBe(true);

    const both = await getSessionOverview(session.projectId, session.id, { agentId: "planner-2", outcomes: ["DECLINED"] });
    expectSeqs(both.spans, (p) => p.agentId === "planner-2" && p.outcome === "DECLINED");
    expect(both.total).toBe(both.spans.length);

    // With a grid cell: every span here is a structured or narrative one; the cell narrows further.
    const structuredMain = await getSessionOverview(session.projectId, session.id, { class: "NARRATIVE", agentId: null });
    expect(structuredMain.spans.every((s) => s.class === "NARRATIVE" && s.agentId === null)).toBe(true);
    expect(structuredMain.total).toBe(structuredMain.spans.length);

    // An empty outcome list filters nothing; an agent nobody is lists nothing.
    expect((await getSessionOverview(session.projectId, session.id, { outcomes: [] })).total).toBe(30);
    const nobody = await getSessionOverview(session.projectId, session.id, { agentId: "nobody" });
    expect(nobody.spans).toEqual([]);
    expect(nobody.total).toBe(0);
  });

  it("counts a filtered list only as far as the cap, and says when more match", async () => {
    const { project, session } = await seedSession();
    const policy = await loadPolicy(db(), project.id);
    const now = new Date();
    const grid = await sessionGrid(db(), session.id, policy, now);
    expect(await timelineCount(db(), session.id, policy, now, grid, { agentId: null }, 100)).toBe(15);
    // Capped at 4: reports 5 (more than the cap), not 15.
    expect(await timelineCount(db(), session.id, policy, now, grid, { agentId: null }, 4)).toBe(5);
  });

  it("counts a grid cell's held originals and their bytes, and reads the cell's keys for a bulk act", async () => {
    const { session } = await seedSession();
    const whole = await getSessionOverview(session.projectId, session.id);
    expect(whole.cellHeld).toEqual({ count: 0, bytes: 0 });
    let cells = 0;
    for (const [cls, row] of Object.entries(whole.grid))
      for (const [provenance, count] of Object.entries(row)) {
        if (count === 0 || provenance === "LOST" || provenance === "NONE") continue;
        const at = { class: cls as "STRUCTURED", provenance: provenance as "EXPIRING" };
        const cell = await getSessionOverview(session.projectId, session.id, at);
        const { total, keys } = await cellOriginals(session.projectId, session.id, at);
        const sizes = await db().span.findMany({
          where: { sessionId: session.id, id: { in: keys.map((k) => k.spanId) } },
          select: { byteLength: true, class: true },
        });
        expect(total).toBe(count);
        expect(keys).toHaveLength(count);
        expect(sizes.every((s) => s.class === cls)).toBe(true);
        expect(cell.cellHeld).toEqual({ count, bytes: sizes.reduce((sum, s) => sum + s.byteLength, 0) });
        expect(cell.cellHeld.bytes).toBeGreaterThan(0);
        cells++;
      }
    expect(cells).toBeGreaterThan(0);
    // Another project's session is not found, as one that does not exist.
    const other = await seedSession();
    await expect(
      cellOriginals(session.projectId, other.session.id, { class: "STRUCTURED", provenance: "EXPIRING" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("lists the session's subagents with their types, and the records its import skipped", async () => {
    const { session } = await seedSession();
    expect(await sessionAgents(session.id)).toEqual([
      { agentId: "explorer-1", agentType: "Explore" },
      { agentId: "planner-2", agentType: "Plan" },
    ]);
    expect(await sessionAgents(session.id, 1)).toEqual([{ agentId: "explorer-1", agentType: "Explore" }]);

    expect(await sessionSkippedRecords(session.id)).toEqual({ records: [], total: 0 });
    await db().skippedRecord.createMany({
      data: [
        { sessionId: session.id, line: 41, reason: "not valid JSON" },
        { sessionId: session.id, line: 7, reason: "tool result without its call" },
      ],
    });
    expect(await sessionSkippedRecords(session.id)).toEqual({
      records: [
        { line: 7, reason: "tool result without its call" },
        { line: 41, reason: "not valid JSON" },
      ],
      total: 2,
    });
    expect((await sessionSkippedRecords(session.id, 1)).records).toHaveLength(1);
    const overview = await getSessionOverview(session.projectId, session.id);
    expect(overview.skipped.total).toBe(2);
    expect(overview.agents).toHaveLength(2);
  });
});

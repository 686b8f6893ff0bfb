import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { refusalFeed } from "./refusal-feed";
import { REFUSAL_PAGE_SIZE } from "./refusal-list";

const REFUSALS = 130;
const UNASKED = 12;
const START = Date.UTC(2026, 10, 1);
const HOUR = 3_600_000;
const NOW = new Date(Date.UTC(2026, 11, 1));

/**
 * A project with 130 refusals (one an hour from 1 November, cells and requesters in turn) and 12
 * compactions done without asking (every eleventh hour, half past), so the merged list has 142.
 */
async function seed(label: string) {
  const project = await makeTestProject(label);
  const { session } = await upsertSession(project.id, { externalId: `${label}-s`, runtime: "claude-code" });
  const [span] = await appendSpans(project.id, session.id, [
    {
      seq: 0,
      kind: "TOOL_CALL",
      toolName: "Bash",
      occurredAt: new Date(START),
      body: new TextEncoder().encode('{"command":"x"}'),
    },
  ]);
  const refusals = Array.from({ length: REFUSALS }, (_, i) => ({
    sessionId: session.id,
    id: randomUUID(),
    projectId: project.id,
    spanId: span!.id,
    decisionId: randomUUID(),
    cellClass: i % 2 === 0 ? ("SIDE_EFFECTING" as const) : ("STRUCTURED" as const),
    cellProvenance: i % 3 === 0 ? ("LOST" as const) : ("EXPIRING" as const),
    reason: `refused ${i}`,
    requester: i % 4 === 0 ? "runtime:codex" : "runtime:claude-code",
    atomsAtRisk: [],
    occurredAt: new Date(START + i * HOUR),
  }));
  await db().refusalEvent.createMany({ data: refusals });
  const compactions = Array.from({ length: UNASKED }, (_, i) => ({
    sessionId: session.id,
    id: randomUUID(),
    projectId: project.id,
    asked: false,
    replacedCount: 3,
    refusedCount: 1,
    requester: "importer:codex",
    occurredAt: new Date(START + (i * 11 + 0.5) * HOUR),
  }));
  await db().compaction.createMany({ data: compactions });
  const merged = [
    ...refusals.map((r) => ({ kind: "refusal", id: r.id, at: r.occurredAt.getTime() })),
    ...compactions.map((c) => ({ kind: "compaction", id: c.id, at: c.occurredAt.getTime() })),
  ].sort((a, b) => b.at - a.at);
  return { project, session, refusals, compactions, merged };
}

type Feed = Awaited<ReturnType<typeof refusalFeed>>;
/** The page's events, refusals and compactions merged in time order as the page shows them. */
const idsOf = (feed: Feed, newestFirst = true) =>
  [...feed.events.map((e) => ({ id: e.id, at: e.occurredAt })), ...feed.compactions.map((c) => ({ id: c.id, at: c.occurredAt }))]
    .sort((a, b) => (newestFirst ? b.at.localeCompare(a.at) : a.at.localeCompare(b.at)))
    .map((e) => e.id);

describe("the refusals list", () => {
  it("pages refusals and compactions without asking as one list with its total, newest or oldest first", async () => {
    const { project, merged } = await seed("refusal-list");
    expect(REFUSAL_PAGE_SIZE).toBe(50);
    const first = await refusalFeed(project.id, {}, NOW);
    expect([first.total, first.pages, first.page]).toEqual([REFUSALS + UNASKED, 3, 1]);
    expect(idsOf(first)).toEqual(merged.slice(0, 50).map((m) => m.id));
    const second = await refusalFeed(project.id, { page: "2" }, NOW);
    expect(idsOf(second)).toEqual(merged.slice(50, 100).map((m) => m.id));
    // The last page is read from the other end.
    const last = await refusalFeed(project.id, { page: "3" }, NOW);
    expect(idsOf(last)).toEqual(merged.slice(100).map((m) => m.id));
    expect((await refusalFeed(project.id, { page: "40" }, NOW)).page).toBe(3);
    const oldest = await refusalFeed(project.id, { sort: "oldest" }, NOW);
    expect(idsOf(oldest, false)).toEqual(
      [...merged]
        .reverse()
        .slice(0, 50)
        .map((m) => m.id),
    );
    const oldestLast = await refusalFeed(project.id, { sort: "oldest", page: "3" }, NOW);
    expect(idsOf(oldestLast, false)).toEqual(
      [...merged]
        .reverse()
        .slice(100)
        .map((m) => m.id),
    );
  });

  it("filters by what to show, cell, requester, days and session, with totals", async () => {
    const { project, session, refusals } = await seed("refusal-filters");
    const total = async (raw: Record<string, string>) => (await refusalFeed(project.id, raw, NOW)).total;
    expect(await total({ show: "refusals" })).toBe(REFUSALS);
    expect(await total({ show: "compactions" })).toBe(UNASKED);
    // A compaction has no cell: a cell filter keeps to refusals.
    expect(await total({ cellClass: "SIDE_EFFECTING" })).toBe(refusals.filter((r) => r.cellClass === "SIDE_EFFECTING").length);
    expect(await total({ cellClass: "STRUCTURED", cellProvenance: "LOST" })).toBe(
      refusals.filter((r) => r.cellClass === "STRUCTURED" && r.cellProvenance === "LOST").length,
    );
    const codex = await refusalFeed(project.id, { requester: "runtime:codex" }, NOW);
    expect(codex.total).toBe(refusals.filter((r) => r.requester === "runtime:codex").length);
    expect(codex.events.every((e) => e.requester === "runtime:codex")).toBe(true);
    expect(await total({ requester: "importer:codex" })).toBe(UNASKED);
    // 1 November 00:00 to 23:59 UTC: refusals 0-23, compactions at 0.5, 11.5 and 22.5 hours.
    expect(await total({ from: "2026-11-01", to: "2026-11-01" })).toBe(24 + 3);
    expect(await total({ from: "2026-11-02" })).toBe(REFUSALS - 24 + UNASKED - 3);
    expect(await total({ session: session.id })).toBe(REFUSALS + UNASKED);
    // The chart counts the same refusals per day.
    const day = await refusalFeed(project.id, { from: "2026-11-01", to: "2026-11-02", show: "refusals" }, NOW);
    expect(day.days).toBe(2);
    expect(day.counts.reduce((n, c) => n + c.count, 0)).toBe(48);
  });

  it("never shows another project's events, even asked for its session", async () => {
    const a = await seed("refusal-a");
    const b = await seed("refusal-b");
    const feed = await refusalFeed(a.project.id, {}, NOW);
    expect(feed.total).toBe(REFUSALS + UNASKED);
    const bIds = new Set<string>([...b.refusals.map((r) => r.id), ...b.compactions.map((c) => c.id)]);
    for (const page of ["1", "2", "3"])
      expect(idsOf(await refusalFeed(a.project.id, { page }, NOW)).some((id) => bIds.has(id))).toBe(false);
    const asked = await refusalFeed(a.project.id, { session: b.session.id }, NOW);
    expect([asked.total, asked.events, asked.compactions, asked.counts]).toEqual([0, [], [], []]);
  });

  it("names the field of a filter that does not fit", async () => {
    const { project } = await seed("refusal-bad");
    for (const [raw, field] of [
      [{ page: "-1" }, "page"],
      [{ show: "everything" }, "show"],
      [{ cellClass: "LOUD" }, "cellClass"],
      [{ from: "2026-13-01" }, "from"],
      [{ from: "2026-11-05", to: "2026-11-01" }, "to"],
      [{ session: "not-a-uuid" }, "session"],
      [{ requester: "a\u0000b" }, "requester"],
    ] as const) {
      const error = await refusalFeed(project.id, raw, NOW).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "VALIDATION_FAILED" });
      expect((error as { fields: Array<{ path: string }> }).fields.map((f) => f.path)).toEqual([field]);
    }
  });
});

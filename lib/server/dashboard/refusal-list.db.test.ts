import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { reclaim } from "@/lib/server/gate";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { type RefusalFeed, refusalFeed } from "./refusal-feed";
import { REFUSAL_PAGE_SIZE } from "./refusal-list";

const REQUESTS = 70;
const LONE = 5;
const UNASKED = 12;
const START = Date.UTC(2026, 10, 1);
const HOUR = 3_600_000;
const NOW = new Date(Date.UTC(2026, 11, 1));
const SPANS = 6;

type Event = Prisma.RefusalEventCreateManyInput;
const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/**
 * A project with 70 gate requests, the i-th refusing 1 + i % 4 spans at hour i from 1 November
 * (cells and requesters in turn; requests 10 and 11 at the same time in two sessions), five
 * refusals of no known request (their own rows, at half past hours 20-24), and 12 compactions done
 * without asking (every eleventh hour, a quarter past): 87 rows, 180 refusals.
 */
async function seed(label: string) {
  const project = await makeTestProject(label);
  const sessions: Array<{ session: { id: string }; spans: Array<{ id: string }> }> = [];
  for (const s of ["a", "b"]) {
    const { session } = await upsertSession(project.id, {
      externalId: `${label}-${s}`,
      runtime: "claude-code",
      title: `Session ${s}`,
    });
    const spans = await appendSpans(
      project.id,
      session.id,
      Array.from({ length: SPANS }, (_, seq) => ({
        seq,
        kind: "TOOL_CALL" as const,
        toolName: "Bash",
        occurredAt: new Date(START),
        body: new TextEncoder().encode(`{"command":"x${seq}"}`),
      })),
    );
    sessions.push({ session, spans });
  }
  const requests: Array<{ id: string; sessionId: string; at: number; events: Event[] }> = [];
  for (let i = 0; i < REQUESTS; i++) {
    const { session, spans } = sessions[i === 11 ? 1 : 0]!;
    const at = START + (i === 11 ? 10 : i) * HOUR;
    const id = randomUUID();
    const events = Array.from({ length: 1 + (i % 4) }, (_, k) => ({
      sessionId: session.id,
      id: randomUUID(),
      projectId: project.id,
      spanId: spans[k]!.id,
      decisionId: randomUUID(),
      requestId: id,
      cellClass: k % 2 === 0 ? ("SIDE_EFFECTING" as const) : ("STRUCTURED" as const),
      cellProvenance: i % 3 === 0 ? ("LOST" as const) : ("EXPIRING" as const),
      reason: `refused in request ${i}`,
      requester: i % 5 === 0 ? "runtime:codex" : "runtime:claude-code",
      atomsAtRisk: [{ kind: "COMMAND" }],
      occurredAt: new Date(at),
    }));
    requests.push({ id, sessionId: session.id, at, events });
  }
  for (let i = 0; i < LONE; i++) {
    const { session, spans } = sessions[0]!;
    const id = randomUUID();
    const at = START + (20 + i + 0.5) * HOUR;
    const event = {
      sessionId: session.id,
      id,
      // A refusal whose request is not known is a request of its own, named by its id.
      requestId: id,
      projectId: project.id,
      spanId: spans[5]!.id,
      decisionId: randomUUID(),
      cellClass: "SIDE_EFFECTING" as const,
      cellProvenance: "NONE" as const,
      reason: `a refusal of its own (${i})`,
      requester: "runtime:claude-code",
      atomsAtRisk: [],
      occurredAt: new Date(at),
    };
    requests.push({ id, sessionId: session.id, at, events: [event] });
  }
  await db().refusalEvent.createMany({ data: requests.flatMap((r) => r.events) });
  const compactions = Array.from({ length: UNASKED }, (_, i) => ({
    sessionId: sessions[0]!.session.id,
    id: randomUUID(),
    projectId: project.id,
    asked: false,
    replacedCount: 3,
    refusedCount: 1,
    requester: "importer:codex",
    occurredAt: new Date(START + (i * 11 + 0.25) * HOUR),
  }));
  await db().compaction.createMany({ data: compactions });
  // The list's order, newest first: time, then session, then id (uuids compare as Postgres orders them).
  const rows = [
    ...requests.map((r) => ({ kind: "refusal", id: r.id, sessionId: r.sessionId, at: r.at, size: r.events.length })),
    ...compactions.map((c) => ({ kind: "compaction", id: c.id, sessionId: c.sessionId, at: c.occurredAt.getTime(), size: 0 })),
  ].sort((x, y) => y.at - x.at || cmp(y.sessionId, x.sessionId) || cmp(y.id, x.id));
  return { project, sessions, requests, compactions, rows, refusals: requests.reduce((n, r) => n + r.events.length, 0) };
}

const idsOf = (feed: RefusalFeed) => feed.rows.map((r) => (r.kind === "refusal" ? r.group.key : r.compaction.id));

/** Every page from the first, following `after`, then back from the last following `before`. */
async function walk(projectId: string, raw: Record<string, string>) {
  const pages: RefusalFeed[] = [];
  let next: string | null = null;
  do {
    const page: RefusalFeed = await refusalFeed(projectId, next ? { ...raw, after: next } : raw, NOW);
    pages.push(page);
    next = page.after;
  } while (next && pages.length < 20);
  return pages;
}

describe("the refusals list", () => {
  it("pages gate requests and compactions without asking by cursor, each request whole on one page, totals read with the page", async () => {
    const { project, rows, requests, refusals } = await seed("refusal-list");
    expect(REFUSAL_PAGE_SIZE).toBe(50);
    const pages = await walk(project.id, {});
    expect(pages).toHaveLength(2);
    expect(pages.flatMap(idsOf)).toEqual(rows.map((r) => r.id));
    const size = new Map(requests.map((r) => [r.id, r.events.length]));
    for (const page of pages) {
      // The totals are the same on every page, and are the list's.
      expect(page.totals).toEqual({ requests: REQUESTS + LONE, refusals, compactions: UNASKED });
      expect(page.window.rows).toBe(rows.length);
      for (const row of page.rows)
        if (row.kind === "refusal") {
          // Never split: a request's row holds all of its refusals, and names each of its spans.
          expect(row.group.refused).toBe(size.get(row.group.key));
          expect(row.group.spans).toHaveLength(row.group.refused);
          expect(row.group.spans.map((s) => s.seq)).toEqual([...row.group.spans.map((s) => s.seq)].sort());
        }
    }
    expect(pages.map((p) => [p.window.start, p.window.end])).toEqual([
      [0, 50],
      [50, rows.length],
    ]);
    expect(pages[0]!.before).toBeNull();
    expect(pages[1]!.after).toBeNull();
    // The counts add up to what the list shows.
    const shown = pages.flatMap((p) => p.rows);
    expect(shown.filter((r) => r.kind === "refusal")).toHaveLength(pages[0]!.totals.requests);
    expect(shown.reduce((n, r) => n + (r.kind === "refusal" ? r.group.refused : 0), 0)).toBe(refusals);
    // Back from the last page: the first page again.
    const back = await refusalFeed(project.id, { before: pages[1]!.before! }, NOW);
    expect(idsOf(back)).toEqual(idsOf(pages[0]!));
    expect(back.window.start).toBe(0);
    // Oldest first walks the same rows the other way.
    const oldest = await walk(project.id, { sort: "oldest" });
    expect(oldest.flatMap(idsOf)).toEqual([...rows].reverse().map((r) => r.id));
  });

  it("keeps the pages after the first where they were when refusals arrive, and counts them", async () => {
    const { project, sessions, rows, refusals } = await seed("refusal-cursor");
    const first = await refusalFeed(project.id, {}, NOW);
    const second = await refusalFeed(project.id, { after: first.after! }, NOW);
    const { session, spans } = sessions[0]!;
    const request = randomUUID();
    await db().refusalEvent.createMany({
      data: [0, 1, 2].map((k) => ({
        sessionId: session.id,
        id: randomUUID(),
        projectId: project.id,
        spanId: spans[k]!.id,
        decisionId: randomUUID(),
        requestId: request,
        cellClass: "SIDE_EFFECTING" as const,
        cellProvenance: "EXPIRING" as const,
        reason: "arrived while reading",
        requester: "runtime:claude-code",
        atomsAtRisk: [],
        occurredAt: new Date(NOW.getTime() - HOUR),
      })),
    });
    const again = await refusalFeed(project.id, { after: first.after! }, NOW);
    expect(idsOf(again)).toEqual(idsOf(second));
    expect(again.totals).toEqual({ ...second.totals, requests: second.totals.requests + 1, refusals: refusals + 3 });
    // The new request is a row ahead of the page.
    expect(again.window).toEqual({ start: 51, end: rows.length + 1, rows: rows.length + 1 });
    const top = await refusalFeed(project.id, {}, NOW);
    expect(top.rows[0]).toMatchObject({
      kind: "refusal",
      group: { key: request, refused: 3, reasons: ["arrived while reading"] },
    });
  });

  it("filters by what to show, cell, requester, days and session; a request shows its matching refusals", async () => {
    const { project, sessions, requests, refusals } = await seed("refusal-filters");
    const all = requests.flatMap((r) => r.events);
    const totals = async (raw: Record<string, string>) => (await refusalFeed(project.id, raw, NOW)).totals;
    const groups = (events: Event[]) => new Set(events.map((e) => e.requestId ?? e.id)).size;
    expect(await totals({ show: "refusals" })).toEqual({ requests: REQUESTS + LONE, refusals, compactions: 0 });
    expect(await totals({ show: "compactions" })).toEqual({ requests: 0, refusals: 0, compactions: UNASKED });
    // A compaction has no cell: a cell filter keeps to refusals, and to each request's refusals in the cell.
    const structured = all.filter((e) => e.cellClass === "STRUCTURED");
    expect(await totals({ cellClass: "STRUCTURED" })).toEqual({
      requests: groups(structured),
      refusals: structured.length,
      compactions: 0,
    });
    const page = await refusalFeed(project.id, { cellClass: "STRUCTURED" }, NOW);
    for (const row of page.rows) {
      expect(row.kind).toBe("refusal");
      if (row.kind === "refusal") {
        expect(row.group.cells.map((c) => c.cellClass)).toEqual(["STRUCTURED"]);
        expect(row.group.refused).toBe(structured.filter((e) => e.requestId === row.group.key).length);
      }
    }
    const codex = all.filter((e) => e.requester === "runtime:codex");
    expect(await totals({ requester: "runtime:codex" })).toEqual({
      requests: groups(codex),
      refusals: codex.length,
      compactions: 0,
    });
    expect(await totals({ requester: "importer:codex" })).toEqual({ requests: 0, refusals: 0, compactions: UNASKED });
    // 1 November, 00:00 to 23:59 UTC: requests at hours 0-23 (11 at hour 10), the lone ones at 20.5-23.5, compactions at 0.25, 11.25, 22.25.
    const day = all.filter((e) => (e.occurredAt as Date).getTime() < START + 24 * HOUR);
    expect(await totals({ from: "2026-11-01", to: "2026-11-01" })).toEqual({
      requests: groups(day),
      refusals: day.length,
      compactions: 3,
    });
    const b = all.filter((e) => e.sessionId === sessions[1]!.session.id);
    expect(await totals({ session: sessions[1]!.session.id })).toEqual({ requests: 1, refusals: b.length, compactions: 0 });
    // The time range travels with the cursor.
    const walked = await walk(project.id, { from: "2026-11-01", to: "2026-11-02" });
    expect(walked.flatMap((p) => p.rows).length).toBe(walked[0]!.window.rows);
    // The chart counts the same refusals per day.
    const chart = await refusalFeed(project.id, { from: "2026-11-01", to: "2026-11-02", show: "refusals" }, NOW);
    expect(chart.days).toBe(2);
    expect(chart.counts.reduce((n, c) => n + c.count, 0)).toBe(chart.totals.refusals);
  });

  it("shows a gate request's refusals as one row, as the gate records them", async () => {
    const project = await makeTestProject("refusal-reclaim", {
      ...DEFAULT_POLICY,
      ttlDays: { NARRATIVE: 30, STRUCTURED: 30, SIDE_EFFECTING: 30 },
    });
    const { session } = await upsertSession(project.id, { externalId: "reclaimed", runtime: "test" });
    const spans = await appendSpans(
      project.id,
      session.id,
      ["rm -rf /var/cache/app", "chmod 600 /etc/app/key.pem", "systemctl restart app"].map((command, seq) => ({
        seq,
        kind: "TOOL_CALL" as const,
        toolName: "Bash",
        occurredAt: new Date(),
        body: new TextEncoder().encode(JSON.stringify({ command })),
      })),
    );
    const { reclamationId } = await reclaim({
      projectId: project.id,
      sessionId: session.id,
      selection: { spanIds: spans.map((s) => s.id) },
      summary: { text: "Did some maintenance.", pointers: [] },
      dryRun: false,
      requester: "api-key:cust_test",
    });
    const feed = await refusalFeed(project.id, {});
    expect(feed.totals).toEqual({ requests: 1, refusals: 3, compactions: 0 });
    expect(feed.rows).toHaveLength(1);
    expect(feed.rows[0]).toMatchObject({ kind: "refusal", group: { key: reclamationId, refused: 3 } });
  });

  it("never shows another project's rows, even asked for its session", async () => {
    const a = await seed("refusal-a");
    const b = await seed("refusal-b");
    const bIds = new Set<string>([...b.requests.map((r) => r.id), ...b.compactions.map((c) => c.id)]);
    const pages = await walk(a.project.id, {});
    expect(pages.flatMap(idsOf).some((id) => bIds.has(id))).toBe(false);
    const asked = await refusalFeed(a.project.id, { session: b.sessions[0]!.session.id }, NOW);
    expect([asked.totals, asked.rows, asked.counts]).toEqual([{ requests: 0, refusals: 0, compactions: 0 }, [], []]);
  });

  it("names the field of a filter that does not fit", async () => {
    const { project } = await seed("refusal-bad");
    const cursor = Buffer.from(JSON.stringify(["2026-11-01T00:00:00.000Z", randomUUID(), randomUUID()])).toString("base64url");
    for (const [raw, field] of [
      [{ after: "not-a-cursor" }, "after"],
      [{ before: Buffer.from('["x","y","z"]').toString("base64url") }, "before"],
      [{ after: cursor, before: cursor }, "before"],
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

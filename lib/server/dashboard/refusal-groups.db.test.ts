/**
 * The refusals list pages in rows, a gate request's refusals one row: grouped in SQL over every
 * matching refusal, so a request whose refusals are far apart in time is never split across pages,
 * nor counted twice, whichever end a page is read from.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { refusalFeed } from "./refusal-feed";
import { REFUSAL_PAGE_SIZE } from "./refusal-list";

const REQUESTS = 60;
const START = Date.UTC(2026, 10, 1);
const HOUR = 3_600_000;
const NOW = new Date(Date.UTC(2026, 11, 1));

/** 60 gate requests of three refusals each, at hours k, k + 100 and k + 200: interleaved in time. */
async function seed() {
  const project = await makeTestProject("refusal-groups");
  const { session } = await upsertSession(project.id, { externalId: "groups", runtime: "claude-code" });
  const [span] = await appendSpans(project.id, session.id, [
    {
      seq: 0,
      kind: "TOOL_CALL",
      toolName: "Bash",
      occurredAt: new Date(START),
      body: new TextEncoder().encode('{"command":"x"}'),
    },
  ]);
  const requestOf = new Map<string, number>();
  const decisions = [];
  const refusals = [];
  for (let k = 0; k < REQUESTS; k++) {
    const reclamationId = randomUUID();
    for (const offset of [0, 100, 200]) {
      const decisionId = randomUUID();
      const cell = { cellClass: "SIDE_EFFECTING" as const, cellProvenance: "EXPIRING" as const };
      decisions.push({
        sessionId: session.id,
        id: decisionId,
        spanId: span!.id,
        reclamationId,
        verdict: "REFUSE" as const,
        ...cell,
        reason: "r",
        requester: "runtime:test",
      });
      const id = randomUUID();
      requestOf.set(id, k);
      refusals.push({
        sessionId: session.id,
        id,
        projectId: project.id,
        spanId: span!.id,
        decisionId,
        ...cell,
        reason: `request ${k}`,
        requester: "runtime:test",
        atomsAtRisk: [],
        occurredAt: new Date(START + (k + offset) * HOUR),
      });
    }
  }
  await db().gateDecision.createMany({ data: decisions });
  await db().refusalEvent.createMany({ data: refusals });
  return { project, requestOf };
}

describe("the refusals list's rows", () => {
  it("are gate requests, whole on one page, counted once, newest or oldest first", async () => {
    const { project, requestOf } = await seed();
    for (const sort of ["newest", "oldest"] as const) {
      const pages = [1, 2].map((page) => refusalFeed(project.id, { sort, page: String(page) }, NOW));
      const [first, second] = await Promise.all(pages);
      expect([first!.total, first!.rows, first!.pages]).toEqual([REQUESTS * 3, REQUESTS, 2]);
      const requests = (feed: typeof first) => {
        const seen = new Map<number, number>();
        for (const e of feed!.events) seen.set(requestOf.get(e.id)!, (seen.get(requestOf.get(e.id)!) ?? 0) + 1);
        return seen;
      };
      const one = requests(first);
      const two = requests(second);
      expect([one.size, two.size]).toEqual([REQUESTS_PER_PAGE, REQUESTS - REQUESTS_PER_PAGE]);
      // Each request whole on one page: all three of its refusals, none on the other page.
      for (const seen of [one, two]) for (const n of seen.values()) expect(n).toBe(3);
      expect([...one.keys()].filter((k) => two.has(k))).toEqual([]);
      // Newest first: the requests whose last refusal is latest (k + 200) come first, so the first
      // page holds requests 59 down to 10; oldest first, requests 0 to 49.
      const expected = sort === "newest" ? range(REQUESTS - REQUESTS_PER_PAGE, REQUESTS) : range(0, REQUESTS_PER_PAGE);
      expect([...one.keys()].sort((a, b) => a - b)).toEqual(expected);
      // A request's refusals come together, in the list's order.
      const order = first!.events.map((e) => requestOf.get(e.id)!);
      expect(order.filter((k, i) => i === 0 || k !== order[i - 1])).toHaveLength(REQUESTS_PER_PAGE);
    }
  });

  it("count and show only a request's refusals that match the filters", async () => {
    const { project, requestOf } = await seed();
    // Hours 0 to 99 of the first days: only the first refusal (hour k) of each request.
    const day = (hours: number) => new Date(START + hours * HOUR).toISOString().slice(0, 10);
    const feed = await refusalFeed(project.id, { from: day(0), to: day(71) }, NOW);
    expect([feed.total, feed.rows]).toEqual([REQUESTS, REQUESTS]);
    expect(new Set(feed.events.map((e) => requestOf.get(e.id))).size).toBe(REFUSAL_PAGE_SIZE);
  });
});

const REQUESTS_PER_PAGE = REFUSAL_PAGE_SIZE;
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/**
 * Every committed reclamation is a compaction event: asked of the gate (the API, the dashboard) or
 * not (an imported compaction record, one a hook reports after the fact). Those not asked are
 * counted on their session by a trigger and listed, paged, and as a feed.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { importTranscript } from "@/lib/importers";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { listSessionPage, type RefusalFeed, refusalFeed } from "@/lib/server/dashboard";
import { candidateSummaryFor, reclaim } from "@/lib/server/gate";
import { importTranscriptFile } from "@/lib/server/imports";
import { appendSpans, upsertSession } from "@/lib/server/ingest";
import { syncHookTranscript } from "@/lib/server/integrations";
import { COMPACTION_PAGE_SIZE, listCompactions, unaskedCompactionsSince } from "./index";

const text = (s: string) => new TextEncoder().encode(s);
const fixture = (name: string) => new Uint8Array(readFileSync(path.resolve("lib/importers/fixtures", name)));

async function sessionWithSpans(label: string) {
  const project = await makeTestProject(label);
  const { session } = await upsertSession(project.id, { externalId: "s", runtime: "test" });
  const at = new Date();
  const spans = await appendSpans(project.id, session.id, [
    { seq: 0, kind: "MESSAGE", occurredAt: at, body: text("Hello, let us start.") },
    { seq: 1, kind: "TOOL_CALL", toolName: "Bash", occurredAt: at, body: text('{"command":"sudo systemctl restart app"}') },
    { seq: 2, kind: "MESSAGE", occurredAt: at, body: text("Thanks, that is all.") },
  ]);
  return { projectId: project.id, sessionId: session.id, ids: spans.map((s) => s.id) };
}

describe("compactions", () => {
  it("a committed reclamation writes one asked compaction with its counts; a dry run writes none", async () => {
    const s = await sessionWithSpans("compaction-asked");
    const lossy = await candidateSummaryFor(s.sessionId, s.ids, "Greetings were exchanged.", { pointers: false });
    const request = { projectId: s.projectId, sessionId: s.sessionId, selection: { spanIds: s.ids }, summary: lossy };
    await reclaim({ ...request, dryRun: true, requester: "api-key:cust_one" });
    expect(await db().compaction.count({ where: { sessionId: s.sessionId } })).toBe(0);

    const at = new Date("2026-03-01T10:00:00Z");
    const outcome = await reclaim({ ...request, dryRun: false, requester: "api-key:cust_one", at });
    const refused = outcome.decisions.filter((d) => d.verdict === "REFUSE").length;
    expect(refused).toBe(1);
    const rows = await db().compaction.findMany({ where: { sessionId: s.sessionId } });
    expect(rows).toEqual([
      expect.objectContaining({
        id: outcome.reclamationId,
        projectId: s.projectId,
        summarySpanId: outcome.summarySpanId,
        asked: true,
        replacedCount: 2,
        refusedCount: 1,
        requester: "api-key:cust_one",
        occurredAt: at,
        // Refused in part: the candidate is kept as sent, for the refusal's page.
        summaryText: "Greetings were exchanged.",
        summaryPointers: [],
        summaryManifest: null,
      }),
    ]);
    const session = await db().session.findUniqueOrThrow({ where: { id: s.sessionId } });
    expect(session.unaskedCompactionCount).toBe(0);
  });

  it("keeps a fully refused summary's text, and none of one the gate let through whole", async () => {
    const s = await sessionWithSpans("compaction-refused");
    const refusedOnly = await reclaim({
      projectId: s.projectId,
      sessionId: s.sessionId,
      selection: { spanIds: [s.ids[1]!] },
      summary: { text: "Restarted a service.", pointers: [], omissions: { omitted: [{ kind: "PATH", count: 1 }] } },
      dryRun: false,
      requester: "user:a@example.com",
    });
    expect(refusedOnly.summarySpanId).toBeNull();
    const whole = await reclaim({
      projectId: s.projectId,
      sessionId: s.sessionId,
      selection: { spanIds: [s.ids[0]!, s.ids[2]!] },
      summary: { text: "Small talk.", pointers: [] },
      dryRun: false,
      requester: "user:a@example.com",
    });
    const refusedRow = await db().compaction.findUniqueOrThrow({
      where: { sessionId_id: { sessionId: s.sessionId, id: refusedOnly.reclamationId } },
    });
    expect(refusedRow).toMatchObject({
      summarySpanId: null,
      replacedCount: 0,
      refusedCount: 1,
      summaryText: "Restarted a service.",
      summaryManifest: { omitted: [{ kind: "PATH", count: 1 }] },
    });
    const wholeRow = await db().compaction.findUniqueOrThrow({
      where: { sessionId_id: { sessionId: s.sessionId, id: whole.reclamationId } },
    });
    expect(wholeRow).toMatchObject({ replacedCount: 2, refusedCount: 0, summaryText: null, summaryPointers: null });
  });

  it("an imported compaction record is a compaction without asking, counted on its session", async () => {
    const project = await makeTestProject("compaction-import");
    const bytes = fixture("claude-code-session.jsonl");
    const linkable = importTranscript(bytes, "claude-code")
      .sessions.flatMap((x) => x.compactions)
      .filter((c) => c.replacedSeqs.length > 0);
    expect(linkable.length).toBeGreaterThan(0);
    const outcome = await importTranscriptFile(project.id, bytes, { requester: "importer:claude-code" });
    const sessionIds = outcome.sessions.map((x) => x.id);

    const rows = await db().compaction.findMany({ where: { sessionId: { in: sessionIds } } });
    expect(rows).toHaveLength(linkable.length);
    expect(rows.every((r) => !r.asked && r.requester === "importer:claude-code" && r.summarySpanId !== null)).toBe(true);
    expect(rows.map((r) => r.occurredAt.getTime()).sort()).toEqual(linkable.map((c) => c.occurredAt.getTime()).sort());
    const counted = await db().session.findMany({ where: { id: { in: sessionIds } }, select: { unaskedCompactionCount: true } });
    expect(counted.reduce((n, x) => n + x.unaskedCompactionCount, 0)).toBe(linkable.length);

    // Importing the same file again links nothing new, so counts nothing new.
    await importTranscriptFile(project.id, bytes, { requester: "importer:claude-code" });
    expect(await db().compaction.count({ where: { sessionId: { in: sessionIds } } })).toBe(linkable.length);

    const feed = await unaskedCompactionsSince(project.id, { since: new Date(0) });
    expect(feed.map((r) => r.id).sort()).toEqual(rows.map((r) => r.id).sort());
    expect(feed.every((r) => !r.asked && r.sessionTitle.length > 0)).toBe(true);
  });

  it("a compaction a hook reports after the fact is a compaction without asking", async () => {
    const project = await makeTestProject("compaction-hook");
    const parsed = importTranscript(fixture("claude-code-session.jsonl"), "claude-code");
    const session = parsed.sessions.find((x) => x.compactions.some((c) => c.replacedSeqs.length > 0))!;
    const result = await syncHookTranscript(
      project.id,
      {
        session: { externalId: session.externalId, runtime: "claude-code" },
        spans: session.spans,
        skipped: [],
        compactions: session.compactions,
        gate: false,
      },
      "cust_hook",
    );
    expect(result.linkedCompactions).toBeGreaterThan(0);
    const rows = await db().compaction.findMany({ where: { sessionId: result.sessionId } });
    expect(rows).toHaveLength(result.linkedCompactions);
    expect(rows.every((r) => !r.asked && r.requester === "cust_hook")).toBe(true);
    const stored = await db().session.findUniqueOrThrow({ where: { id: result.sessionId } });
    expect(stored.unaskedCompactionCount).toBe(result.linkedCompactions);
  });

  it("lists a project's compactions newest first, paged with a total, filtered by asked and session", async () => {
    const s = await sessionWithSpans("compaction-list");
    const other = await sessionWithSpans("compaction-list-other");
    const commit = (x: typeof s, seq: number, observed: boolean, at: string) =>
      reclaim({
        projectId: x.projectId,
        sessionId: x.sessionId,
        selection: { fromSeq: seq, toSeq: seq },
        summary: { text: "x", pointers: [] },
        dryRun: false,
        observed,
        requester: "test",
        at: new Date(at),
      });
    const first = await commit(s, 0, false, "2026-03-01T00:00:00Z");
    const second = await commit(s, 1, true, "2026-03-02T00:00:00Z");
    const third = await commit(s, 2, true, "2026-03-03T00:00:00Z");
    await commit(other, 0, true, "2026-03-04T00:00:00Z");

    const all = await listCompactions(s.projectId);
    expect(all.total).toBe(3);
    expect(all.items.map((r) => r.id)).toEqual([third.reclamationId, second.reclamationId, first.reclamationId]);
    expect(all.pageSize).toBe(COMPACTION_PAGE_SIZE);
    const unasked = await listCompactions(s.projectId, { asked: false });
    expect(unasked.total).toBe(2);
    expect(unasked.items.map((r) => r.id)).toEqual([third.reclamationId, second.reclamationId]);
    // The observed compaction of the side-effecting span replaced it although the gate would have refused.
    expect(unasked.items[1]).toMatchObject({ replacedCount: 1, refusedCount: 1 });
    expect((await listCompactions(s.projectId, { asked: true })).items.map((r) => r.id)).toEqual([first.reclamationId]);
    expect(await listCompactions(s.projectId, { page: 2 })).toMatchObject({ items: [], total: 3, page: 2 });
    // Another project's session names nothing here.
    expect((await listCompactions(s.projectId, { sessionId: other.sessionId })).total).toBe(0);
    await expect(listCompactions(s.projectId, { page: 0 })).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    await expect(listCompactions(s.projectId, { sessionId: "nope" })).rejects.toMatchObject({ code: "VALIDATION_FAILED" });

    const since = await unaskedCompactionsSince(s.projectId, { since: new Date("2026-03-03T00:00:00Z") });
    expect(since.map((r) => r.id)).toEqual([third.reclamationId]);
    expect((await db().session.findUniqueOrThrow({ where: { id: s.sessionId } })).unaskedCompactionCount).toBe(2);
  });

  it("the sessions list counts them and filters on them; the refusal feed shows them as events of their own", async () => {
    const s = await sessionWithSpans("compaction-pages");
    const quiet = await upsertSession(s.projectId, { externalId: "quiet", runtime: "test" });
    await reclaim({
      projectId: s.projectId,
      sessionId: s.sessionId,
      selection: { fromSeq: 1, toSeq: 1 },
      summary: { text: "restarted", pointers: [] },
      dryRun: false,
      observed: true,
      requester: "importer:codex",
    });
    await reclaim({
      projectId: s.projectId,
      sessionId: s.sessionId,
      selection: { fromSeq: 0, toSeq: 0 },
      summary: { text: "x", pointers: [] },
      dryRun: false,
      requester: "api-key:cust_pages",
    });
    const all = await listSessionPage(s.projectId, {});
    expect(all.rows.map((r) => [r.id, r.unaskedCompactionCount]).sort()).toEqual(
      [
        [s.sessionId, 1],
        [quiet.session.id, 0],
      ].sort(),
    );
    const unasked = await listSessionPage(s.projectId, { state: "unasked" });
    expect(unasked.rows.map((r) => r.id)).toEqual([s.sessionId]);
    expect(unasked.total).toBe(1);

    // A refusal of its own, so each filter has something to leave out.
    await reclaim({
      projectId: s.projectId,
      sessionId: s.sessionId,
      selection: { fromSeq: 2, toSeq: 2 },
      summary: { text: "y", pointers: [] },
      dryRun: true,
      requester: "api-key:cust_pages",
    });
    const other = await sessionWithSpans("compaction-pages-refused");
    await reclaim({
      projectId: other.projectId,
      sessionId: other.sessionId,
      selection: { fromSeq: 1, toSeq: 1 },
      summary: { text: "z", pointers: [] },
      dryRun: false,
      requester: "api-key:cust_pages",
    });
    const compactionsOf = (feed: RefusalFeed) => feed.rows.flatMap((r) => (r.kind === "compaction" ? [r.compaction] : []));
    const groupsOf = (feed: RefusalFeed) => feed.rows.flatMap((r) => (r.kind === "refusal" ? [r.group] : []));
    const both = await refusalFeed(s.projectId, {});
    expect(compactionsOf(both).map((c) => [c.sessionId, c.requester, c.refusedCount])).toEqual([
      [s.sessionId, "importer:codex", 1],
    ]);
    expect(groupsOf(both)).toEqual([]);
    expect(compactionsOf(await refusalFeed(s.projectId, { show: "refusals" }))).toEqual([]);
    expect(compactionsOf(await refusalFeed(s.projectId, { show: "compactions" }))).toHaveLength(1);
    // A compaction has no cell: a cell filter keeps to refusals.
    expect(compactionsOf(await refusalFeed(s.projectId, { cellClass: "SIDE_EFFECTING" }))).toEqual([]);
    const refusedOnly = await refusalFeed(other.projectId, { show: "compactions" });
    expect(refusedOnly.rows).toEqual([]);
    expect(groupsOf(await refusalFeed(other.projectId, { show: "refusals" }))).toHaveLength(1);
    await expect(refusalFeed(s.projectId, { show: "everything" })).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
  });
});

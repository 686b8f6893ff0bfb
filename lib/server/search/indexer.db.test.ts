import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { searchIndexDrift } from "@/lib/server/derived-state-recount.testkit";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { indexAllPending, indexPendingBatch, pendingSearchCount } from "./indexer";
import { SearchInputSchema } from "./input";
import { searchSpans } from "./search";

const utf8 = (s: string) => new TextEncoder().encode(s);

async function seeded(label: string, count: number) {
  const project = await makeTestProject(label);
  const { session } = await upsertSession(project.id, { externalId: `${label}-s`, runtime: "claude-code" });
  const at = Date.now() - 3_600_000;
  const spans = await appendSpans(
    project.id,
    session.id,
    Array.from({ length: count }, (_, seq) => ({
      seq,
      kind: "MESSAGE" as const,
      role: "assistant",
      occurredAt: new Date(at + seq * 1000),
      body: utf8(`${label} line ${seq} listens on port ${9000 + seq}`),
    })),
  );
  return { project, session, spans };
}

const indexedRows = async (sessionId: string) => db().spanSearch.count({ where: { sessionId } });
const pendingRows = async (sessionId: string) => db().spanSearchPending.count({ where: { sessionId } });
const hitIds = async (projectId: string, q: string) =>
  (await searchSpans(projectId, SearchInputSchema.parse({ q, limit: 50 }))).hits.map((h) => h.spanId).sort();

describe("the search indexer", () => {
  it("moves what ingest stored into the index, and search answers the same before and after", async () => {
    const { project, session, spans } = await seeded("indexer-move", 12);
    expect(await pendingRows(session.id)).toBe(12);
    expect(await indexedRows(session.id)).toBe(0);
    const before = await hitIds(project.id, "listens on port");
    expect(before).toEqual(spans.map((s) => s.id).sort());
    expect(await hitIds(project.id, "9007")).toEqual([spans[7]!.id]);

    await indexAllPending();
    expect(await pendingRows(session.id)).toBe(0);
    expect(await indexedRows(session.id)).toBe(12);
    expect(await hitIds(project.id, "listens on port")).toEqual(before);
    expect(await hitIds(project.id, "9007")).toEqual([spans[7]!.id]);
    expect(await db().$transaction((tx) => searchIndexDrift(tx, project.id))).toEqual([]);
  });

  it("shares the work between indexers running at once: every span indexed once, none lost", async () => {
    const { project, session } = await seeded("indexer-race", 130);
    const taken = await Promise.all([indexPendingBatch(50), indexPendingBatch(50), indexPendingBatch(50)]);
    expect(taken.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(130);
    await Promise.all([indexAllPending(40), indexAllPending(40)]);
    expect(await pendingRows(session.id)).toBe(0);
    expect(await indexedRows(session.id)).toBe(130);
    expect(await pendingSearchCount()).toBe(0);
    const all = await searchSpans(project.id, SearchInputSchema.parse({ q: "listens on port" }));
    expect(all.total).toEqual({ count: 130, relation: "eq" });
    expect(await db().$transaction((tx) => searchIndexDrift(tx, project.id))).toEqual([]);
  });

  it("indexes an original again when its bytes change length, and never finds the old text", async () => {
    const { project, session, spans } = await seeded("indexer-rewrite", 2);
    await indexAllPending();
    const target = spans[0]!;
    await db().spanOriginal.update({
      where: { sessionId_spanId: { sessionId: session.id, spanId: target.id } },
      data: { bytes: Buffer.from(utf8("rewritten: the service moved to port 12345 today")) },
    });
    // Pending again, found by its new text only, once.
    expect(await pendingRows(session.id)).toBe(1);
    expect(await hitIds(project.id, "12345")).toEqual([target.id]);
    expect(await hitIds(project.id, "9000")).toEqual([]);
    await indexAllPending();
    expect(await hitIds(project.id, "12345")).toEqual([target.id]);
    expect(await hitIds(project.id, "9000")).toEqual([]);
    expect(await db().$transaction((tx) => searchIndexDrift(tx, project.id))).toEqual([]);
  });
});

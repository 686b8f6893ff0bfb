import { describe, expect, it } from "vitest";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { appendSpans, type SpanSubmission, upsertSession } from "@/lib/server/ingest/append";
import { getSessionOverview, TIMELINE_PAGE_SIZE } from "./session-detail";
import { parseSpanListQuery } from "./span-list-query";

const SPANS = 450;
const KINDS = ["MESSAGE", "TOOL_CALL", "TOOL_RESULT"] as const;

/** A session of 450 spans (three pages: the last read from the other end), kinds in turn. */
async function seed(seqOf: (i: number) => number = (i) => i) {
  const project = await makeTestProject("span-list");
  const { session } = await upsertSession(project.id, { externalId: "long", runtime: "claude-code" });
  const submissions: SpanSubmission[] = Array.from({ length: SPANS }, (_, seq) => ({
    seq: seqOf(seq),
    kind: KINDS[seq % 3]!,
    toolName: seq % 3 === 0 ? null : "Bash",
    body: new TextEncoder().encode(seq % 3 === 0 ? `note ${seq}` : `{"command":"ls /tmp/${seq}"}`),
    occurredAt: new Date(Date.UTC(2026, 11, 1, 0, 0, seq)),
  }));
  await appendSpans(project.id, session.id, submissions);
  return { project, session };
}

const seqs = (spans: Array<{ seq: number | null }>) => spans.map((s) => s.seq);
/** from, from + step, ... below `to`. */
const range = (from: number, to: number, step = 1) =>
  Array.from({ length: Math.ceil((to - from) / step) }, (_, i) => from + i * step);

describe("a session's span list", () => {
  it("pages in seq order either way with the exact total, the back half read from the other end", async () => {
    const { project, session } = await seed();
    expect(TIMELINE_PAGE_SIZE).toBe(200);
    const first = await getSessionOverview(project.id, session.id);
    expect([first.total, first.pages, first.page]).toEqual([SPANS, 3, 1]);
    expect(seqs(first.spans)).toEqual(range(0, 200));
    expect(seqs((await getSessionOverview(project.id, session.id, { page: 2 })).spans)).toEqual(range(200, 400));
    const last = await getSessionOverview(project.id, session.id, { page: 3 });
    expect(seqs(last.spans)).toEqual(range(400, 450));
    // A page past the end shows the last.
    expect((await getSessionOverview(project.id, session.id, { page: 99 })).page).toBe(3);

    const newest = await getSessionOverview(project.id, session.id, { descending: true });
    expect(seqs(newest.spans)).toEqual(range(250, 450).reverse());
    const oldestLast = await getSessionOverview(project.id, session.id, { descending: true, page: 3 });
    expect(seqs(oldestLast.spans)).toEqual(range(0, 50).reverse());
  });

  it("pages the same when its seqs have a gap (read by offset, not by seq)", async () => {
    // Seq 100 missing: positions past it hold seq + 1.
    const { project, session } = await seed((i) => (i < 100 ? i : i + 1));
    const shifted = (from: number, to: number) => range(from, to).map((i) => (i < 100 ? i : i + 1));
    expect(seqs((await getSessionOverview(project.id, session.id, { page: 2 })).spans)).toEqual(shifted(200, 400));
    expect(seqs((await getSessionOverview(project.id, session.id, { page: 3 })).spans)).toEqual(shifted(400, 450));
    const turned = await getSessionOverview(project.id, session.id, { descending: true, page: 2 });
    expect(seqs(turned.spans)).toEqual(shifted(50, 250).reverse());
  });

  it("filters by kind and transcript state with exact totals, and by class from the grid", async () => {
    const { project, session } = await seed();
    const calls = await getSessionOverview(project.id, session.id, { kind: "TOOL_CALL" });
    expect(calls.total).toBe(SPANS / 3);
    expect(seqs(calls.spans)).toEqual(range(1, SPANS, 3));
    expect(calls.spans.every((s) => s.kind === "TOOL_CALL")).toBe(true);
    const lastCalls = await getSessionOverview(project.id, session.id, { kind: "TOOL_CALL", descending: true });
    expect(seqs(lastCalls.spans)).toEqual(range(1, SPANS, 3).reverse());

    expect((await getSessionOverview(project.id, session.id, { transcriptState: "VERBATIM" })).total).toBe(SPANS);
    const reclaimed = await getSessionOverview(project.id, session.id, { transcriptState: "RECLAIMED" });
    expect([reclaimed.total, reclaimed.spans.length]).toEqual([0, 0]);

    const all = await getSessionOverview(project.id, session.id);
    const narrative = all.grid.NARRATIVE;
    const byClass = await getSessionOverview(project.id, session.id, { class: "NARRATIVE" });
    expect(byClass.total).toBe(narrative.DURABLE + narrative.EXPIRING + narrative.LOST + narrative.NONE);
    const both = await getSessionOverview(project.id, session.id, { class: "NARRATIVE", kind: "MESSAGE" });
    expect(both.spans.every((s) => s.class === "NARRATIVE" && s.kind === "MESSAGE")).toBe(true);
    expect(both.total).toBe(both.spans.length);
  });

  it("is another project's session not found", async () => {
    const { session } = await seed();
    const other = await makeTestProject("span-list-other");
    await expect(getSessionOverview(other.id, session.id, { kind: "TOOL_CALL" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("reads its query from the URL, naming a field that does not fit", () => {
    expect(parseSpanListQuery({})).toEqual({ page: 1, sort: "seq" });
    expect(
      parseSpanListQuery(
        new URLSearchParams("kind=TOOL_CALL&state=RECLAIMED&outcome=FAILED&outcome=DECLINED&page=3&sort=seq-desc&agent="),
      ),
    ).toEqual({ kind: "TOOL_CALL", state: "RECLAIMED", outcome: ["FAILED", "DECLINED"], page: 3, sort: "seq-desc" });
    expect(parseSpanListQuery({ agent: "sub:explorer-1" }).agent).toBe("sub:explorer-1");
    for (const [raw, field] of [
      [{ page: "0" }, "page"],
      [{ page: "two" }, "page"],
      [{ kind: "EMAIL" }, "kind"],
      [{ sort: "time" }, "sort"],
      [{ provenance: "durable" }, "provenance"],
      [{ agent: "somebody" }, "agent"],
    ] as const) {
      try {
        parseSpanListQuery(raw);
        expect.unreachable(`${JSON.stringify(raw)} was accepted`);
      } catch (error) {
        expect(error).toMatchObject({ code: "VALIDATION_FAILED" });
        expect((error as { fields: Array<{ path: string }> }).fields.map((f) => f.path)).toEqual([field]);
      }
    }
  });
});

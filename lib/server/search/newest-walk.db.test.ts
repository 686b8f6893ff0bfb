import { describe, expect, it } from "vitest";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { indexAllPending } from "./indexer";
import { SearchInputSchema } from "./input";
import { RANK_CAP, searchSpans } from "./search";
import { NEWEST_WALK_ROWS } from "./sql";

const utf8 = (s: string) => new TextEncoder().encode(s);

describe("a newest-first page of many matches", () => {
  it("is the same whether the matches lie among the newest rows walked or only past them", async () => {
    const project = await makeTestProject("newest-walk");
    const { session } = await upsertSession(project.id, { externalId: "newest-walk-s", runtime: "claude-code" });
    // Older spans say the phrase, the newest NEWEST_WALK_ROWS + 50 do not: a walk of the newest
    // finds no match, and the page comes from the planner's plan.
    const matching = RANK_CAP + 100;
    const total = matching + NEWEST_WALK_ROWS + 50;
    const start = Date.now() - total * 1000;
    for (let from = 0; from < total; from += 500) {
      await appendSpans(
        project.id,
        session.id,
        Array.from({ length: Math.min(500, total - from) }, (_, i) => {
          const seq = from + i;
          return {
            seq,
            kind: "MESSAGE" as const,
            role: "assistant",
            occurredAt: new Date(start + seq * 1000),
            body: utf8(seq < matching ? `the cache has been updated (${seq})` : `nothing new here (${seq})`),
          };
        }),
      );
    }
    await indexAllPending();
    const ask = (cursor?: string) =>
      searchSpans(project.id, SearchInputSchema.parse({ q: '"has been updated"', limit: 20, ...(cursor ? { cursor } : {}) }));
    const first = await ask();
    expect(first.order).toBe("newest");
    expect(first.total).toEqual({ count: RANK_CAP, relation: "gt" });
    const seqs = (page: typeof first) => page.hits.map((h) => h.seq);
    expect(seqs(first)).toEqual(Array.from({ length: 20 }, (_, i) => matching - 1 - i));
    const second = await ask(first.nextCursor!);
    expect(seqs(second)).toEqual(Array.from({ length: 20 }, (_, i) => matching - 21 - i));

    // Matches among the newest: found by the walk, in the same order.
    const newest = await searchSpans(project.id, SearchInputSchema.parse({ q: '"nothing new here"', limit: 20 }));
    expect(newest.order).toBe("newest");
    expect(newest.hits.map((h) => h.seq)).toEqual(Array.from({ length: 20 }, (_, i) => total - 1 - i));
  }, 120_000);
});

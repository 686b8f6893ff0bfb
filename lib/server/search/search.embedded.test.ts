/**
 * Search on the embedded database (PGlite with its pg_trgm extension), over the demo the first
 * command loads: `8443` is found inside `localhost:8443/health`, and every hit's byte range is
 * that text in the original's bytes (a hit whose original expired matched in what is kept, and names
 * no bytes). The demo is loaded afresh under a slug of its own: the
 * embedded tests share one database, and another of them sweeps the first demo's originals away.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { loadDemo } from "@/lib/demo/load";
import type { SearchHit } from "./hits";
import { indexAllPending, pendingSearchCount } from "./indexer";
import { SearchInputSchema } from "./input";
import { searchSpans } from "./search";

async function originalText(sessionId: string, spanId: string, start: number, end: number): Promise<string> {
  const original = await db().spanOriginal.findUniqueOrThrow({ where: { sessionId_spanId: { sessionId, spanId } } });
  return Buffer.from(original.bytes!.subarray(start, end)).toString("utf8");
}

/** A held hit's range names `text` in its original; an expired one (matched in what is kept) names none, and its bytes are gone. */
async function confirms(hit: SearchHit, text: string): Promise<void> {
  if (hit.original === "HELD") {
    expect(await originalText(hit.sessionId, hit.spanId, hit.byteStart!, hit.byteEnd!)).toBe(text);
    return;
  }
  expect([hit.byteStart, hit.byteEnd]).toEqual([null, null]);
  const original = await db().spanOriginal.findUniqueOrThrow({
    where: { sessionId_spanId: { sessionId: hit.sessionId, spanId: hit.spanId } },
  });
  expect(original.bytes).toBeNull();
  expect(hit.snippet.match.toLowerCase()).toBe(text.toLowerCase());
}

describe("search on the embedded database", () => {
  beforeAll(async () => {
    await loadDemo(new Date(), "search-demo");
  }, 120_000);

  it("finds 8443 in the demo, with byte ranges the originals confirm", async () => {
    const demo = await db().project.findUniqueOrThrow({ where: { slug: "search-demo" } });
    const page = await searchSpans(demo.id, SearchInputSchema.parse({ q: "8443" }));
    expect(page.total.relation).toBe("eq");
    expect(page.hits.length).toBeGreaterThanOrEqual(4);
    expect(
      page.hits.some((h) => `${h.snippet.before}${h.snippet.match}${h.snippet.after}`.includes("localhost:8443/health")),
    ).toBe(true);
    for (const hit of page.hits) await confirms(hit, "8443");
  });

  it("answers prefixes, phrases and patterns there too", async () => {
    const demo = await db().project.findUniqueOrThrow({ where: { slug: "search-demo" } });
    const ask = async (q: Record<string, unknown>) => searchSpans(demo.id, SearchInputSchema.parse(q));
    const prefix = await ask({ q: "/etc/app*" });
    expect(prefix.hits.length).toBeGreaterThan(0);
    for (const hit of prefix.hits) await confirms(hit, "/etc/app");
    // The demo holds expired originals of /etc/app writes: still found, in what is kept of them.
    expect(prefix.hits.some((h) => h.original === "EXPIRED")).toBe(true);
    const phrase = await ask({ q: '"answers ok"' });
    expect(phrase.hits).toHaveLength(1);
    const pattern = await ask({ regex: "localhost:\\d+/health" });
    expect(pattern.hits.length).toBeGreaterThanOrEqual(2);
    for (const hit of pattern.hits) await confirms(hit, "localhost:8443/health");
  });

  it("indexes what waits for the search indexer, and finds the same after", async () => {
    const demo = await db().project.findUniqueOrThrow({ where: { slug: "search-demo" } });
    const ids = async (q: string) =>
      (await searchSpans(demo.id, SearchInputSchema.parse({ q }))).hits.map((h) => `${h.spanId}:${h.byteStart}`).sort();
    // The demo was just loaded: its originals wait for the indexer (unless a server sharing this
    // database indexed them already; either way the answers must not change).
    const before = await ids("8443");
    await indexAllPending();
    expect(await pendingSearchCount()).toBe(0);
    expect(await ids("8443")).toEqual(before);
  }, 120_000);
});

import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { sweep } from "@/lib/server/retention";
import { indexAllPending } from "./indexer";
import { SearchInputSchema } from "./input";
import { searchSpans } from "./search";

const utf8 = (s: string) => new TextEncoder().encode(s);
const ask = (q: Record<string, unknown>) => SearchInputSchema.parse(q);

/**
 * Every case runs twice: with the spans still waiting for the search indexer (read as they are
 * searched) and with them indexed. Search must answer the same either way.
 */
let indexed = false;

async function seeded(label: string, bodies: Array<{ body: Uint8Array; kind?: "MESSAGE" | "TOOL_CALL" | "TOOL_RESULT" }>) {
  const project = await makeTestProject(label);
  const { session } = await upsertSession(project.id, { externalId: `${label}-s`, runtime: "claude-code" });
  const at = Date.now() - 3_600_000;
  const spans = await appendSpans(
    project.id,
    session.id,
    bodies.map((b, seq) => ({
      seq,
      kind: b.kind ?? "MESSAGE",
      role: "assistant",
      occurredAt: new Date(at + seq * 1000),
      body: b.body,
    })),
  );
  if (indexed) await indexAllPending();
  return { project, session, spans, bodies: bodies.map((b) => b.body) };
}

/** The bytes a hit's range names in the original, as text. */
function matched(
  bodies: Uint8Array[],
  spans: Array<{ id: string }>,
  hit: { spanId: string; byteStart: number | null; byteEnd: number | null },
) {
  const body = bodies[spans.findIndex((s) => s.id === hit.spanId)]!;
  return Buffer.from(body.subarray(hit.byteStart ?? 0, hit.byteEnd ?? 0)).toString("latin1");
}

describe.each(["pending", "indexed"])("search over spans, %s", (mode) => {
  beforeAll(() => {
    indexed = mode === "indexed";
  });

  it("finds a substring inside a token, with the byte range of the match in the original bytes", async () => {
    const bodies = [
      { body: utf8('{"command":"curl -fsS https://localhost:8443/health"}'), kind: "TOOL_CALL" as const },
      { body: utf8("é😀 the proxy answers on 8443 now") },
      // Not UTF-8: a lone 0xFF and a NUL before the match; each stands for one byte.
      { body: Uint8Array.from([0xff, 0x00, ...utf8("é port 8443 open")]) },
      { body: utf8("nothing to see here") },
    ];
    const { project, spans } = await seeded("search-sub", bodies);
    const page = await searchSpans(project.id, ask({ q: "8443" }));
    expect(page.total).toEqual({ count: 3, relation: "eq" });
    expect(page.hits.map((h) => h.spanId).sort()).toEqual([spans[0]!.id, spans[1]!.id, spans[2]!.id].sort());
    for (const hit of page.hits) {
      expect(
        matched(
          bodies.map((b) => b.body),
          spans,
          hit,
        ),
      ).toBe("8443");
      expect(hit.snippet.match).toBe("8443");
    }
    const toolCall = page.hits.find((h) => h.spanId === spans[0]!.id)!;
    expect(toolCall.snippet.before).toContain("localhost:");
    expect(toolCall.snippet.after).toContain("/health");
    expect(toolCall.kind).toBe("TOOL_CALL");
  });

  it("finds prefixes, phrases and RE2 patterns, and applies filters", async () => {
    const bodies = [
      { body: utf8("tail -n 50 /var/log/app/error.log"), kind: "TOOL_CALL" as const },
      { body: utf8("write failed: disk is full on /dev/sda1"), kind: "TOOL_RESULT" as const },
      { body: utf8("the disk, which is full of logs") },
      { body: utf8("GET http://localhost:9000/health -> 200") },
    ];
    const { project, spans, session } = await seeded("search-modes", bodies);
    const ids = async (q: Record<string, unknown>) => (await searchSpans(project.id, ask(q))).hits.map((h) => h.spanId);
    expect(await ids({ q: "/var/log*" })).toEqual([spans[0]!.id]);
    expect(await ids({ q: '"disk is full"' })).toEqual([spans[1]!.id]);
    expect((await ids({ q: "disk full" })).sort()).toEqual([spans[1]!.id, spans[2]!.id].sort());
    expect(await ids({ q: "disk full", kind: "MESSAGE" })).toEqual([spans[2]!.id]);
    expect(await ids({ q: "disk", session: session.id, to: new Date(Date.now() - 7_200_000).toISOString() })).toEqual([]);
    const pattern = await searchSpans(project.id, ask({ regex: "localhost:\\d+/health" }));
    expect(pattern.hits.map((h) => h.spanId)).toEqual([spans[3]!.id]);
    expect(
      matched(
        bodies.map((b) => b.body),
        spans,
        pattern.hits[0]!,
      ),
    ).toBe("localhost:9000/health");
    expect(pattern.scanned).toEqual({ spans: 4, complete: true });
    await expect(searchSpans(project.id, ask({ regex: "(a)\\1" }))).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
  });

  it("pages with a cursor through every match once", async () => {
    const bodies = Array.from({ length: 7 }, (_, i) => ({ body: utf8(`ticket SHOP-${1180 + i} reopened`) }));
    const { project } = await seeded("search-pages", bodies);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 5; i++) {
      const page = await searchSpans(project.id, ask({ q: "SHOP-11", limit: 3, ...(cursor ? { cursor } : {}) }));
      seen.push(...page.hits.map((h) => h.spanId));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
  });

  it("the bytes of an original the sweeper deletes leave the index", async () => {
    const marker = `sweep${randomBytes(4).toString("hex")}`;
    const { project, spans, session } = await seeded("search-sweep", [
      { body: utf8(`token ${marker} here`) },
      { body: utf8(`and ${marker} kept`) },
    ]);
    expect((await searchSpans(project.id, ask({ q: marker }))).total.count).toBe(2);
    await db().spanOriginal.update({
      where: { sessionId_spanId: { sessionId: session.id, spanId: spans[0]!.id } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await sweep(new Date());
    const after = await searchSpans(project.id, ask({ q: marker }));
    expect(after.hits.map((h) => h.spanId)).toEqual([spans[1]!.id]);
  });

  it("finds a span whose original the sweeper deleted in what is kept of it, marked, with no bytes of the original", async () => {
    const host = `h${randomBytes(4).toString("hex")}.example.com`;
    const aside = `aside${randomBytes(4).toString("hex")}`;
    const { project, spans, session } = await seeded("search-kept", [
      { body: utf8(`I will ${aside} quietly, then curl https://${host}:8443/health and read /etc/app/${host}.yaml`) },
      { body: utf8(`still held: ${host} answered`) },
      { body: utf8(`only chat, ${aside} again, nothing to keep`) },
    ]);
    const stranger = await seeded("search-kept-other", [{ body: utf8("unrelated words") }]);
    await db().spanOriginal.updateMany({
      where: { sessionId: session.id, spanId: { in: [spans[0]!.id, spans[2]!.id] } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const swept = await sweep(new Date());
    expect(swept.lostSpanIds).toEqual(expect.arrayContaining([spans[0]!.id, spans[2]!.id]));

    const page = await searchSpans(project.id, ask({ q: `${host}:8443` }));
    expect(page.hits).toHaveLength(1);
    const hit = page.hits[0]!;
    expect(hit).toMatchObject({
      spanId: spans[0]!.id,
      original: "EXPIRED",
      byteStart: null,
      byteEnd: null,
      partlyIndexed: false,
    });
    expect(hit.snippet.match).toBe(`${host}:8443`);
    // The kept fact that matched, never the deleted narrative around it.
    expect(`${hit.snippet.before}${hit.snippet.match}${hit.snippet.after}`).toContain(`https://${host}:8443/health`);
    expect(JSON.stringify(page)).not.toContain(aside);
    expect(JSON.stringify(page)).not.toContain("quietly");

    // Held and expired spans side by side, each marked; a pattern reads what is kept too.
    const both = await searchSpans(project.id, ask({ q: host }));
    expect(Object.fromEntries(both.hits.map((h) => [h.spanId, h.original]))).toEqual({
      [spans[0]!.id]: "EXPIRED",
      [spans[1]!.id]: "HELD",
    });
    const pattern = await searchSpans(project.id, ask({ regex: `/etc/app/h[0-9a-f]+\\.example` }));
    expect(pattern.hits.map((h) => [h.spanId, h.original])).toEqual([[spans[0]!.id, "EXPIRED"]]);

    // Words only the deleted bytes held are gone from the index, with the span that kept nothing.
    expect((await searchSpans(project.id, ask({ q: aside }))).hits).toEqual([]);
    expect((await searchSpans(project.id, ask({ q: "quietly" }))).hits).toEqual([]);

    for (const q of [{ q: host }, { q: `${host}:8443` }, { regex: host.replace(/\./g, "\\.") }]) {
      const other = await searchSpans(stranger.project.id, ask(q));
      expect(other.hits).toEqual([]);
      expect(JSON.stringify(other)).not.toContain(host);
    }
  });

  it("never returns another project's spans", async () => {
    const secret = `secret-${randomBytes(6).toString("hex")}`;
    const a = await seeded("search-a", [{ body: utf8("public words only") }]);
    await seeded("search-b", [{ body: utf8(`the password is ${secret}`) }]);
    for (const q of [{ q: secret }, { q: "password" }, { regex: "secret-[0-9a-f]+" }, { q: `${secret.slice(0, 10)}*` }]) {
      const page = await searchSpans(a.project.id, ask(q));
      expect(page.hits).toEqual([]);
      expect(JSON.stringify(page)).not.toContain(secret);
    }
  });
});

/**
 * `npm run bench:search`: search at scale, through the use case every caller goes through
 * (searchSpans: the SQL, then each hit placed and its snippet cut), against a copy of the scale
 * seed migrated with the search index (SEARCH_BENCH_DATABASE_URL, default the local `scale_search`:
 * `createdb -T scale scale_search`, then `DATABASE_URL=... npx prisma migrate deploy`).
 *
 * Reports: p50/p95 of each query shape (a rare word, a common word's first page, a phrase, a
 * 4-character substring, a path prefix, an RE2 pattern over one session's spans, and a term
 * whose two words are each common, the trigram index's worst case); the index's size per indexed
 * span; and ingest throughput into that database with the index's insert trigger on and off, in
 * alternating rounds (a project of its own, deleted at the end), with the search indexer's own
 * throughput after each round that queued spans for it, and the two together. SEARCH_BENCH_RUNS (default 20)
 * and SEARCH_BENCH_ROUNDS (default 6) tune it; SEARCH_BENCH_* terms override the defaults, which
 * are picked from the scale seed's vocabulary.
 */
import pg from "pg";
import { runMain } from "@/lib/runner/run-main";
import { percentile } from "./measure";
import { benchSpan } from "./spans";

const URL = process.env.SEARCH_BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/scale_search";
process.env.DATABASE_URL = URL;
const RUNS = Number(process.env.SEARCH_BENCH_RUNS ?? 20);
const ROUNDS = Number(process.env.SEARCH_BENCH_ROUNDS ?? 6);
const TRIGGER = "span_search_from_original_insert";

interface Case {
  label: string;
  target: number;
  input: Record<string, unknown>;
}

async function main(): Promise<void> {
  const { db, disconnectDb } = await import("@/lib/db/client");
  const { indexAllPending, searchSpans, SearchInputSchema } = await import("@/lib/server/search");
  const { appendSpans, upsertSession } = await import("@/lib/server/ingest");
  const { createProject } = await import("@/lib/server/admin");
  const owner = new pg.Client({ connectionString: URL });
  await owner.connect();
  try {
    const project = (await owner.query<{ id: string; slug: string }>("select id, slug from project order by created_at limit 1"))
      .rows[0];
    if (!project) throw new Error(`no project in ${URL}: seed it (npm run seed:scale) and copy it`);
    const sizes = (
      await owner.query<{ n: string; total: string; heap: string; trgm: string; words: string; recent: string }>(
        `select (select count(*) from span_search) as n, pg_total_relation_size('span_search') as total,
                pg_relation_size('span_search') + coalesce(pg_relation_size(reltoastrelid), 0) as heap,
                pg_relation_size('span_search_body_trgm_idx') as trgm, pg_relation_size('span_search_words_idx') as words,
                pg_relation_size('span_search_recent_idx') as recent
           from pg_class where relname = 'span_search'`,
      )
    ).rows[0]!;
    const spans = Number((await owner.query<{ n: string }>("select count(*) as n from span")).rows[0]!.n);
    const session = (
      await owner.query<{ id: string; n: number }>(
        `select session_id::text as id, count(*)::int as n from span_search where project_id = $1 group by 1 order by 2 desc limit 1`,
        [project.id],
      )
    ).rows[0]!;
    const n = Number(sizes.n);
    console.log(`database: ${URL}; ${spans.toLocaleString("en")} spans, ${n.toLocaleString("en")} with held originals (indexed)`);
    const kb = (bytes: string) => `${(Number(bytes) / n).toFixed(0)} B`;
    console.log(
      `index size per indexed span: ${kb(sizes.total)} in all (text and tsvector rows ${kb(sizes.heap)}, trigram ${kb(sizes.trgm)}, ` +
        `words ${kb(sizes.words)}, newest-first ${kb(sizes.recent)}); ${(Number(sizes.total) / 2 ** 20).toFixed(0)} MiB total`,
    );

    const cases: Case[] = [
      { label: "rare word (an id)", target: 300, input: { q: process.env.SEARCH_BENCH_RARE ?? "55e405f67783da005ea4c846" } },
      { label: "common word, first page", target: 300, input: { q: process.env.SEARCH_BENCH_COMMON ?? "error" } },
      { label: "phrase", target: 300, input: { q: `"${process.env.SEARCH_BENCH_PHRASE ?? "has been updated"}"` } },
      { label: "4-character substring", target: 300, input: { q: process.env.SEARCH_BENCH_SUBSTRING ?? "9402" } },
      { label: "path prefix", target: 300, input: { q: `${process.env.SEARCH_BENCH_PREFIX ?? "/home/runner/src/billing"}*` } },
      {
        label: `RE2 pattern over one session (${session.n} spans)`,
        target: 1000,
        input: { regex: process.env.SEARCH_BENCH_REGEX ?? "\\d+ files? changed, \\d+ insertions", session: session.id },
      },
      { label: "two common words as one term (trigram worst case)", target: 300, input: { q: "workermap.retry" } },
    ];
    console.log(`\nquery times, ${RUNS} runs each after 2 warm-ups (ms):`);
    for (const c of cases) {
      const input = SearchInputSchema.parse(c.input);
      const times: number[] = [];
      let last: Awaited<ReturnType<typeof searchSpans>> | undefined;
      for (let i = 0; i < RUNS + 2; i++) {
        const start = performance.now();
        last = await searchSpans(project.id, input);
        if (i >= 2) times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      const p95 = percentile(times, 0.95);
      const total = last
        ? `${last.total.relation === "gt" ? ">" : last.total.relation === "gte" ? ">=" : ""}${last.total.count}`
        : "?";
      console.log(
        `  ${c.label.padEnd(52)} p50 ${percentile(times, 0.5).toFixed(0).padStart(5)}  p95 ${p95.toFixed(0).padStart(5)}  ` +
          `(target ${c.target}: ${p95 <= c.target ? "met" : "MISSED"}; ${total} matches, ${last?.hits.length ?? 0} on the page)`,
      );
    }

    // Ingest with the index's insert trigger on and off, alternating, into a project of its own.
    // With it on, ingest writes each original's key for the search indexer, which then indexes the
    // round's spans in batches (timed apart: a writer does not wait for it, the machine pays it).
    const benchProject = await createProject({ slug: `search-bench-${Date.now()}`, name: "Search bench" });
    const rates: Record<"on" | "off" | "indexer" | "sustained", number[]> = { on: [], off: [], indexer: [], sustained: [] };
    let seq = 0;
    const utf8 = new TextEncoder();
    const perRound = 2000;
    try {
      // Nothing of the seed or an earlier run waits for the indexer: each round indexes its own.
      await indexAllPending();
      for (let round = 0; round < ROUNDS * 2; round++) {
        const mode = round % 2 === 0 ? "on" : "off";
        await owner.query(`alter table span_original ${mode === "on" ? "enable" : "disable"} trigger ${TRIGGER}`);
        const { session: s } = await upsertSession(benchProject.id, { externalId: `bench-${round}`, runtime: "claude-code" });
        const start = performance.now();
        for (let b = 0; b < perRound / 500; b++) {
          const batch = Array.from({ length: 500 }, () => {
            const span = benchSpan(seq++);
            return { ...span, occurredAt: new Date(span.occurredAt), body: utf8.encode(span.body) };
          });
          await appendSpans(benchProject.id, s.id, batch as Parameters<typeof appendSpans>[2]);
        }
        const ingested = performance.now();
        rates[mode].push(perRound / ((ingested - start) / 1000));
        if (mode === "on") {
          const indexed = await indexAllPending();
          if (indexed !== perRound) throw new Error(`the indexer took ${indexed} spans, not the round's ${perRound}`);
          const done = performance.now();
          rates.indexer.push(perRound / ((done - ingested) / 1000));
          rates.sustained.push(perRound / ((done - start) / 1000));
        }
      }
    } finally {
      await owner.query(`alter table span_original enable trigger ${TRIGGER}`);
      await db().project.delete({ where: { id: benchProject.id } });
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    const off = median(rates.off);
    const slower = (rate: number) => `${((1 - rate / off) * 100).toFixed(1)}% slower`;
    const on = median(rates.on);
    const drop = (1 - on / off) * 100;
    console.log(
      `\ningest (appendSpans, batches of 500 spans of about 1 KiB, ${ROUNDS} rounds of ${perRound} spans each way, medians):\n` +
        `  without the index ${off.toFixed(0)} spans/s; with it, what a writer waits for ${on.toFixed(0)} spans/s: ${slower(on)} ` +
        `(target at most 25%: ${drop <= 25 ? "met" : "MISSED"})\n` +
        `  the search indexer after each round: ${median(rates.indexer).toFixed(0)} spans/s; ingest and indexing one after ` +
        `the other (the machine's whole cost): ${median(rates.sustained).toFixed(0)} spans/s, ${slower(median(rates.sustained))}`,
    );
  } finally {
    await owner.end();
    await disconnectDb();
  }
}

runMain(main);

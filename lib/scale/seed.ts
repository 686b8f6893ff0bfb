/**
 * `npm run seed:scale`: loads a realistic data set at scale into DATABASE_URL, for the page and
 * question benchmarks: 1,000 sessions, 1,000,000 transcript spans (one session of 100,000), every
 * span analysed by the real analyzer and every compaction judged by the real gate, written with
 * COPY. Refuses a database that already holds projects unless --force.
 *
 * Options: --force, --slug <project> (default "scale"), --sessions N, --spans N, --big N (spans of
 * the long session), --seed N.
 */
import { env } from "@/lib/core/env";
import pg from "pg";
import { runMain } from "@/lib/runner/run-main";
import { applyMigrations } from "@/lib/db/migrations";
import { parseDatabaseUrl } from "@/lib/db/pg-pool";
import { StartupError } from "@/lib/db/startup-error";
import { TABLES } from "./columns";
import { copyLines } from "@/lib/db/copy";
import { disconnectDb } from "@/lib/db/client";
import { indexAllPending } from "@/lib/server/search";
import { loadScaleProject } from "./load";

interface Options {
  force: boolean;
  slug: string;
  sessions: number;
  spans: number;
  big: number;
  seed: number;
}

function parseOptions(argv: string[]): Options {
  const options: Options = { force: false, slug: "scale", sessions: 1000, spans: 1_000_000, big: 100_000, seed: 7 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new StartupError(`${arg} needs a value`);
      return v;
    };
    const count = () => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1) throw new StartupError(`${arg} needs a positive whole number`);
      return n;
    };
    if (arg === "--force") options.force = true;
    else if (arg === "--slug") options.slug = value();
    else if (arg === "--sessions") options.sessions = count();
    else if (arg === "--spans") options.spans = count();
    else if (arg === "--big") options.big = count();
    else if (arg === "--seed") options.seed = count();
    else throw new StartupError(`unknown option ${arg}`);
  }
  if (options.big >= options.spans) throw new StartupError("--big must be smaller than --spans");
  return options;
}

function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  const url = env().DATABASE_URL;
  if (!url) throw new StartupError("DATABASE_URL is required: the scale data set goes into a database you name");
  const started = performance.now();

  await applyMigrations(url);
  const client = new pg.Client(parseDatabaseUrl(url));
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string; taken: boolean }>(
      "select count(*)::text as n, bool_or(slug = $1) as taken from project",
      [options.slug],
    );
    const existing = Number(rows[0]!.n);
    if (existing > 0 && !options.force) {
      throw new StartupError(
        `the database already has ${existing} project(s); pass --force to add the scale project next to them`,
      );
    }
    if (rows[0]!.taken) throw new StartupError(`a project "${options.slug}" exists already; pick another with --slug`);
    // A lost tail of a crashed seed is re-run, not recovered: no need to wait for each flush.
    await client.query("set synchronous_commit = off");
    console.log(
      `Loading ${options.sessions} sessions and ${options.spans} spans into project "${options.slug}" (the longest session: ${options.big} spans)`,
    );
    const progress = progressLine(options.spans);
    const totals = await loadScaleProject(
      {
        query: (text, values) => client.query(text, values),
        copy: (table, columns, text) => copyLines(client, table, columns, text),
      },
      options,
      progress,
    );
    progress.done();
    const loadedMs = performance.now() - started;
    console.log(
      `Loaded ${totals.sessions} sessions, ${totals.spans} spans, ${totals.summaries} summaries, ${totals.atoms} atoms, ` +
        `${(totals.bytes / 1e6).toFixed(0)} MB of bodies in ${formatDuration(loadedMs)}`,
    );
    // What a server's search indexer would do in the background, done here so the data set is
    // searched through its indexes from the start.
    const indexStart = performance.now();
    console.log("Indexing the originals for search...");
    const indexed = await indexAllPending();
    console.log(`  ${indexed} originals in ${formatDuration(performance.now() - indexStart)}`);
    const vacuumStart = performance.now();
    console.log("VACUUM ANALYZE (visibility map and statistics for index-only scans)...");
    for (const table of ["session", ...TABLES, "span_search", "span_search_pending"])
      await client.query(`vacuum (analyze) ${table}`);
    console.log(
      `  done in ${formatDuration(performance.now() - vacuumStart)}; total ${formatDuration(performance.now() - started)}`,
    );
  } finally {
    await client.end();
    await disconnectDb();
  }
}

/** Spans and atoms so far, the rate, and the time left. */
function progressLine(total: number) {
  const t0 = performance.now();
  const tty = process.stderr.isTTY;
  let lastPrint = 0;
  const print = (done: number, atoms: number, force = false) => {
    const now = performance.now();
    if (!force && now - lastPrint < (tty ? 500 : 15_000)) return;
    lastPrint = now;
    const rate = done / ((now - t0) / 1000);
    const eta = rate > 0 ? formatDuration(((total - done) / rate) * 1000) : "?";
    const text = `  ${done.toLocaleString("en")}/${total.toLocaleString("en")} spans, ${atoms.toLocaleString("en")} atoms, ${Math.round(rate).toLocaleString("en")} spans/s, ${eta} left`;
    process.stderr.write(tty ? `\r${text}   ` : `${text}\n`);
  };
  return Object.assign((done: number, atoms: number) => print(done, atoms), {
    done: () => process.stderr.write(tty ? "\n" : ""),
  });
}

runMain(main);

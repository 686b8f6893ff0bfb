/**
 * `npm run bench:pages`: server render time of the dashboard's heaviest pages over HTTP, against
 * `next start` on DATABASE_URL loaded by `npm run seed:scale` (1,000 sessions, 1,000,000 spans):
 * the sessions page, the page of the longest (100,000-span) session and the Evidence page's
 * system-config answer over the whole project, with targets of p95 under 500 ms; then the grid-count query alone (target p95 under 50 ms) and EXPLAIN (ANALYZE, BUFFERS)
 * summaries of the queries behind the pages.
 *
 * BENCH_ITERATIONS (default 40) and BENCH_WARMUP (default 5) tune the runs; BENCH_PROJECT names the
 * project (default "scale"). Builds the app if needed. Signs in as a viewer it creates (or resets)
 * in that database: bench@scale.invalid.
 */
import { env } from "@/lib/core/env";
import { hashPassword } from "better-auth/crypto";
import { randomBytes } from "node:crypto";
import { ensureBuilt } from "@/lib/runner/build";
import { runMain } from "@/lib/runner/run-main";
import { db, disconnectDb } from "@/lib/db/client";
import { loadPolicy } from "@/lib/server/retention";
import { sessionListSql } from "@/lib/server/dashboard";
import { createUser } from "@/lib/server/admin";
import { gridQueries, sessionGrid, timelineQuery } from "@/lib/server/provenance";
import {
  connect,
  measure,
  printExplain,
  printTimings,
  requireDatabaseUrl,
  scaleTargets,
  startServer,
  type Timing,
} from "./measure";

const ITERATIONS = env().BENCH_ITERATIONS ?? 40;
const WARMUP = env().BENCH_WARMUP ?? 5;
const BENCH_EMAIL = "bench@scale.invalid";

/** A viewer to sign in as, with a fresh password each run. */
async function benchUser(): Promise<{ email: string; password: string }> {
  const password = randomBytes(18).toString("base64url");
  const existing = await db().user.findUnique({ where: { email: BENCH_EMAIL } });
  if (existing) {
    await db().authAccount.updateMany({
      where: { userId: existing.id, providerId: "credential" },
      data: { password: await hashPassword(password) },
    });
  } else {
    await createUser({ email: BENCH_EMAIL, name: "Benchmark", role: "VIEWER", password }, { type: "SYSTEM", label: "benchmark" });
  }
  return { email: BENCH_EMAIL, password };
}

async function signIn(base: string, user: { email: string; password: string }): Promise<string> {
  const response = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify(user),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  const cookies = response.headers.getSetCookie().map((c) => c.split(";")[0]);
  if (cookies.length === 0) throw new Error("sign-in set no cookie");
  return cookies.join("; ");
}

/** One page view: the whole HTML, which must be the page and not a redirect or an error. */
function pageView(base: string, cookie: string, path: string, mustContain: string) {
  return async () => {
    const response = await fetch(`${base}${path}`, { headers: { cookie }, redirect: "manual" });
    const html = await response.text();
    if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status}`);
    if (!html.includes(mustContain)) throw new Error(`${path}: the page does not show "${mustContain}"`);
    return html.length;
  };
}

async function main() {
  const url = requireDatabaseUrl();
  await ensureBuilt();
  const targets = await scaleTargets();
  const user = await benchUser();
  const policy = await loadPolicy(db(), targets.projectId);
  console.log(
    `Project "${targets.slug}": ${targets.sessions} sessions, ${targets.spans.toLocaleString("en")} spans; ` +
      `longest session ${targets.big.id} (${targets.big.spans.toLocaleString("en")} spans)`,
  );
  console.log(`${ITERATIONS} sequential requests per page after ${WARMUP} warm-up requests\n`);

  const server = await startServer(url);
  const timings: Timing[] = [];
  try {
    const cookie = await signIn(server.base, user);
    const options = { iterations: ITERATIONS, warmup: WARMUP };
    const bigPath = `/sessions/${targets.big.id}`;
    timings.push(
      await measure("GET /sessions", pageView(server.base, cookie, "/sessions", "Sessions"), { ...options, target: 500 }),
    );
    timings.push(
      await measure("GET /sessions?sort=at-risk", pageView(server.base, cookie, "/sessions?sort=at-risk", "Sessions"), options),
    );
    timings.push(
      await measure(`GET /sessions/<100k-span session>`, pageView(server.base, cookie, bigPath, "Evidence grid"), {
        ...options,
        target: 500,
      }),
    );
    timings.push(
      await measure(
        "  ... one grid cell (STRUCTURED x DURABLE)",
        pageView(server.base, cookie, `${bigPath}?class=STRUCTURED&provenance=DURABLE`, "Evidence grid"),
        options,
      ),
    );
    timings.push(
      await measure(
        "  ... its last page of spans",
        pageView(server.base, cookie, `${bigPath}?page=100000`, "Evidence grid"),
        options,
      ),
    );
    // An answer over the whole project names tens of thousands of blocking spans: a page of each list.
    timings.push(
      await measure(
        "GET /evidence (system config, whole project)",
        pageView(server.base, cookie, `/evidence?project=${targets.slug}&q=modified-system-config`, "Blocking spans"),
        { ...options, target: 500 },
      ),
    );
  } finally {
    await server.stop();
  }

  const now = new Date();
  timings.push(
    await measure("grid counts of the 100k-span session (query alone)", () => sessionGrid(db(), targets.big.id, policy, now), {
      iterations: ITERATIONS * 5,
      warmup: WARMUP,
      target: 50,
    }),
  );
  timings.push(
    await measure("grid counts of a median session (query alone)", () => sessionGrid(db(), targets.typical.id, policy, now), {
      iterations: ITERATIONS * 5,
      warmup: WARMUP,
    }),
  );
  console.log("Render times over HTTP, and the grid query:");
  printTimings(timings);

  console.log("\nQuery plans (EXPLAIN ANALYZE, BUFFERS):");
  const client = await connect(url);
  try {
    const params = { now, horizonDays: policy.evidenceHorizonDays };
    const q = gridQueries(targets.big.id, params);
    await printExplain(client, "grid counters, 100k-span session", q.counts);
    await printExplain(client, "grid: its spans past their TTL, original still held", q.expired);
    await printExplain(client, "grid: its summaries", q.summaries);
    await printExplain(client, "grid: summaries with a pointerless link", q.unpointed);
    const grid = await sessionGrid(db(), targets.big.id, policy, now);
    await printExplain(
      client,
      "transcript, first page",
      timelineQuery(targets.big.id, policy, now, grid, {}, { offset: 0, limit: 200 }),
    );
    await printExplain(
      client,
      "transcript, STRUCTURED x DURABLE cell",
      timelineQuery(targets.big.id, policy, now, grid, { class: "STRUCTURED", provenance: "DURABLE" }, { offset: 0, limit: 200 }),
    );
    await printExplain(client, "sessions page", sessionListSql(targets.projectId, { state: "any", sort: "activity", page: 1 }));
    await printExplain(client, "sessions page, by spans at risk", sessionListSql(targets.projectId, { state: "any", sort: "at-risk", page: 1 }));
  } finally {
    await client.end();
  }
}

runMain(async () => {
  try {
    await main();
  } finally {
    await disconnectDb();
  }
});

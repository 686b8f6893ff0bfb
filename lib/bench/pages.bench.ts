/**
 * `npm run bench:pages`: server render time of the dashboard's pages over HTTP, against `next start`
 * on DATABASE_URL loaded by `npm run seed:scale` (1,000 sessions, 1,000,000 spans): every paged
 * list (sessions, the longest session's spans, refusals, imports, API keys, the audit log) at its
 * first, a middle and its last page, target p95 under 300 ms each; the session page's grid cell and
 * the Evidence page's whole-project answer (under 500 ms); then the grid-count query alone (p95
 * under 50 ms) and EXPLAIN (ANALYZE, BUFFERS) summaries of the queries behind the lists, flagging
 * any sequential scan of span, refusal_event, import_job or audit_log.
 *
 * BENCH_ITERATIONS (default 40) and BENCH_WARMUP (default 5) tune the runs; BENCH_PROJECT names the
 * project (default "scale"). Builds the app if needed. Signs in as bench@scale.invalid, whom it
 * creates (or gives a fresh password) and makes an admin member of the project (settings are for
 * admins); adds the import jobs and API keys the lists need once (list-fixtures.ts).
 */
import { env } from "@/lib/core/env";
import { hashPassword } from "better-auth/crypto";
import { randomBytes } from "node:crypto";
import { ensureBuilt } from "@/lib/runner/build";
import { runMain } from "@/lib/runner/run-main";
import { db, disconnectDb } from "@/lib/db/client";
import { loadPolicy } from "@/lib/server/retention";
import {
  importCountSql,
  importPageSql,
  PAGE_SIZE,
  pageBySeq,
  parseImportListQuery,
  parseRefusalListQuery,
  REFUSAL_PAGE_SIZE,
  refusalCountSql,
  refusalPageSql,
  sessionListSql,
} from "@/lib/server/dashboard";
import { projectOverview, projectOverviewStatements } from "@/lib/server/overview";
import { addMember, createUser, findMembership } from "@/lib/server/admin";
import { BENCH_IMPORT_JOBS, ensureListFixtures } from "./list-fixtures";
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

const BENCH_ACTOR = { type: "SYSTEM", label: "benchmark" } as const;
/** Lists' p95 target, ms. */
const LIST_TARGET = 300;
/** Spans on a page of a session's transcript. */
const SPAN_PAGE = 200;

/** A person to sign in as, with a fresh password each run, an admin member of the project. */
async function benchUser(slug: string, projectId: string): Promise<{ email: string; password: string }> {
  const password = randomBytes(18).toString("base64url");
  const existing = await db().user.findUnique({ where: { email: BENCH_EMAIL } });
  if (existing) {
    await db().authAccount.updateMany({
      where: { userId: existing.id, providerId: "credential" },
      data: { password: await hashPassword(password) },
    });
  } else {
    await createUser({ email: BENCH_EMAIL, name: "Benchmark", role: "VIEWER", password }, BENCH_ACTOR);
  }
  const user = await db().user.findUniqueOrThrow({ where: { email: BENCH_EMAIL } });
  if (!(await findMembership(user.id, slug))) await addMember({ projectId, email: BENCH_EMAIL, role: "ADMIN" }, BENCH_ACTOR);
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
  const user = await benchUser(targets.slug, targets.projectId);
  const policy = await loadPolicy(db(), targets.projectId);
  {
    const client = await connect(url);
    await ensureListFixtures(client, targets.projectId).finally(() => client.end());
  }
  const counts = await listCounts(targets.projectId);
  console.log(
    `Project "${targets.slug}": ${targets.sessions} sessions, ${targets.spans.toLocaleString("en")} spans; ` +
      `longest session ${targets.big.id} (${targets.big.spans.toLocaleString("en")} spans); ` +
      `${counts.refusals.toLocaleString("en")} refusals, ${counts.imports.toLocaleString("en")} import jobs, ` +
      `${counts.keys} API keys, ${counts.audit.toLocaleString("en")} audit events`,
  );
  console.log(`${ITERATIONS} sequential requests per page after ${WARMUP} warm-up requests\n`);

  const server = await startServer(url);
  const timings: Timing[] = [];
  const failures: string[] = [];
  try {
    const cookie = await signIn(server.base, user);
    const base = `/projects/${encodeURIComponent(targets.slug)}`;
    // A page that fails is reported and the others still measured.
    const page = async (label: string, path: string, mustContain: string, target = LIST_TARGET) => {
      try {
        timings.push(
          await measure(label, pageView(server.base, cookie, `${base}${path}`, mustContain), {
            iterations: ITERATIONS,
            warmup: WARMUP,
            target,
          }),
        );
      } catch (error) {
        failures.push(`${label}: ${(error as Error).message}`);
      }
    };
    await page("project overview", "", "Refusals per", 500);
    const lastOf = (total: number, size: number) => Math.max(1, Math.ceil(total / size));
    const sessionPages = lastOf(targets.sessions, PAGE_SIZE);
    await page("sessions, page 1", "/sessions", "Sessions");
    await page(`sessions, page ${Math.ceil(sessionPages / 2)}`, `/sessions?page=${Math.ceil(sessionPages / 2)}`, "Sessions");
    await page(`sessions, last page (${sessionPages})`, `/sessions?page=${sessionPages}`, "Sessions");
    await page("sessions by spans at risk", "/sessions?sort=at-risk", "Sessions");
    const big = `/sessions/${targets.big.id}`;
    const spanPages = lastOf(targets.big.spans, SPAN_PAGE);
    await page("100k-span session: spans, page 1", big, "Evidence grid");
    await page(`  ... page ${Math.ceil(spanPages / 2)}`, `${big}?page=${Math.ceil(spanPages / 2)}`, "Evidence grid");
    await page(`  ... last page (${spanPages})`, `${big}?page=${spanPages}`, "Evidence grid");
    await page("  ... last seq first, page 1", `${big}?sort=seq-desc`, "Evidence grid");
    await page("  ... tool calls (counted), page 100", `${big}?kind=TOOL_CALL&page=100`, "Evidence grid");
    await page("  ... one grid cell (STRUCTURED x DURABLE)", `${big}?class=STRUCTURED&provenance=DURABLE`, "Evidence grid");
    const refusalPages = lastOf(counts.refusals, REFUSAL_PAGE_SIZE);
    await page("refusals, page 1", "/refusals", "Refusal events");
    await page(
      `refusals, page ${Math.ceil(refusalPages / 2)}`,
      `/refusals?page=${Math.ceil(refusalPages / 2)}`,
      "Refusal events",
    );
    await page(`refusals, last page (${refusalPages})`, `/refusals?page=${refusalPages}`, "Refusal events");
    await page("refusals, one cell, oldest first", "/refusals?cellClass=SIDE_EFFECTING&sort=oldest", "Refusal events");
    const importPages = lastOf(counts.imports, 25);
    await page("imports, page 1", "/imports", "Imports");
    await page(`imports, last page (${importPages})`, `/imports?page=${importPages}`, "Imports");
    await page("imports, failed only", "/imports?status=FAILED", "Imports");
    await page("settings: API keys, page 1", "/settings", "API keys of");
    await page("settings: revoked keys, last page", "/settings?keys=revoked&keysPage=1000", "API keys of");
    const auditPages = lastOf(counts.audit, 50);
    await page("audit log, page 1", "/audit", "Audit log");
    await page(`audit log, last page (${auditPages})`, `/audit?page=${auditPages}`, "Audit log");
    // An answer over the whole project names tens of thousands of blocking spans: a page of each list.
    await page("evidence (system config, whole project)", "/evidence?q=modified-system-config", "Blocking spans", 500);
  } finally {
    await server.stop();
  }

  const now = new Date();
  for (const [label, session, target] of [
    ["grid counts of the 100k-span session (query alone)", targets.big.id, 50],
    ["grid counts of a median session (query alone)", targets.typical.id, undefined],
  ] as const)
    timings.push(
      await measure(label, () => sessionGrid(db(), session, policy, now), {
        iterations: ITERATIONS * 5,
        warmup: WARMUP,
        ...(target ? { target } : {}),
      }),
    );
  timings.push(
    await measure(
      "project overview read model, 90 days (query alone)",
      () => projectOverview(targets.projectId, { range: "90d" }),
      {
        iterations: ITERATIONS,
        warmup: WARMUP,
        target: 300,
      },
    ),
  );
  console.log("Render times over HTTP, the grid and overview queries:");
  printTimings(timings);
  for (const failure of failures) console.log(`  FAILED ${failure}`);
  if (failures.length > 0) process.exitCode = 1;

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
    const spans = (filter: Parameters<typeof timelineQuery>[4], offset: number, descending = false) =>
      timelineQuery(targets.big.id, policy, now, grid, filter, { offset, limit: SPAN_PAGE, descending });
    await printExplain(client, "spans, first page", spans({}, 0));
    await printExplain(client, "spans, last page (read from the other end)", spans({}, 0, true));
    const middleOffset = Math.floor(targets.big.spans / 2 / SPAN_PAGE) * SPAN_PAGE;
    const bigSession = await db().session.findUniqueOrThrow({ where: { id: targets.big.id } });
    const bySeq = pageBySeq(bigSession, {}, { offset: middleOffset, limit: SPAN_PAGE, descending: false });
    await printExplain(
      client,
      "spans, middle page (as read: by seq when the seqs have no gap)",
      timelineQuery(targets.big.id, policy, now, grid, bySeq.filter, bySeq.read),
    );
    await printExplain(client, "spans, middle page by offset (a session with seq gaps)", spans({}, middleOffset));
    await printExplain(client, "spans, tool calls, page 100", spans({ kind: "TOOL_CALL" }, 99 * SPAN_PAGE));
    await printExplain(client, "spans, STRUCTURED x DURABLE cell", spans({ class: "STRUCTURED", provenance: "DURABLE" }, 0));
    await printExplain(client, "sessions page", sessionListSql(targets.projectId, { state: "any", sort: "activity", page: 1 }));
    await printExplain(
      client,
      "sessions page, by spans at risk",
      sessionListSql(targets.projectId, { state: "any", sort: "at-risk", page: 1 }),
    );
    for (const [name, sql] of Object.entries(projectOverviewStatements(targets.projectId, "90d", now)))
      await printExplain(client, `overview, 90 days: ${name}`, sql);
    const refusals = parseRefusalListQuery({});
    // As the list reads them: a table holding none of the project's events is left out.
    const present = { refusals: counts.refusals > 0, compactions: counts.compactions > 0 };
    await printExplain(client, "refusals: total", refusalCountSql(targets.projectId, refusals, now));
    await printExplain(
      client,
      "refusals: page 1",
      refusalPageSql(targets.projectId, refusals, now, { offset: 0, limit: 50, descending: true }, present),
    );
    const middle = Math.floor(counts.refusals / 2 / 50) * 50;
    await printExplain(
      client,
      "refusals: middle page",
      refusalPageSql(targets.projectId, refusals, now, { offset: middle, limit: 50, descending: true }, present),
    );
    const cell = parseRefusalListQuery({ cellClass: "SIDE_EFFECTING", requester: "runtime:codex" });
    await printExplain(client, "refusals: one cell and requester, total", refusalCountSql(targets.projectId, cell, now));
    const imports = parseImportListQuery({});
    await printExplain(client, "imports: total", importCountSql(targets.projectId, imports));
    await printExplain(
      client,
      "imports: page 1",
      importPageSql(targets.projectId, imports, { offset: 0, limit: 25, descending: true }),
    );
    const failed = parseImportListQuery({ status: "FAILED" });
    await printExplain(
      client,
      "imports: failed, middle page",
      importPageSql(targets.projectId, failed, { offset: BENCH_IMPORT_JOBS / 20, limit: 25, descending: true }),
    );
  } finally {
    await client.end();
  }
}

/** How many rows each list of the project holds, for their last pages. */
async function listCounts(projectId: string) {
  const [row] = await db().$queryRaw<
    Array<{ refusals: number; compactions: number; imports: number; keys: number; audit: number }>
  >`
    select (select count(*) from refusal_event where project_id = ${projectId}::uuid)::int as refusals,
           (select count(*) from compaction where project_id = ${projectId}::uuid and not asked)::int as compactions,
           (select count(*) from import_job where project_id = ${projectId}::uuid)::int as imports,
           (select count(*) from api_key where project_id = ${projectId}::uuid)::int as keys,
           (select count(*) from audit_log where project_id = ${projectId}::uuid)::int as audit`;
  return row!;
}

runMain(async () => {
  try {
    await main();
  } finally {
    await disconnectDb();
  }
});

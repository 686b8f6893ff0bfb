/**
 * `npm run bench:pages`: server render time of the dashboard's pages over HTTP, against `next start`
 * on DATABASE_URL loaded by `npm run seed:scale` (1,000 sessions, 1,000,000 spans): every paged
 * list (sessions, the longest session's spans, refusals, imports, API keys, the audit log) at its
 * first, a middle and its last page and with the filters people use (measure-list-pages.ts),
 * target p95 under 300 ms each; the overview and the Evidence page's whole-project answer (under
 * 500 ms); then the grid-count and overview queries alone (p95 under 50 and 300 ms) and EXPLAIN
 * (ANALYZE, BUFFERS) summaries of the statements behind the lists (measure-list-plans.ts),
 * flagging any sequential scan of span, refusal_event, import_job or audit_log.
 *
 * BENCH_ITERATIONS (default 40) and BENCH_WARMUP (default 5) tune the runs; BENCH_PROJECT names the
 * project (default "scale"). Builds the app if needed. Signs in as bench@scale.invalid, whom it
 * creates (or gives a fresh password) and makes an admin member of the project (settings are for
 * admins); adds the import jobs and API keys the lists need once (list-fixtures.ts). The audit
 * log is the seed's own (its sweeps, shortened TTLs and legal holds: about 500,000 events).
 */
import { env } from "@/lib/core/env";
import { hashPassword } from "better-auth/crypto";
import { randomBytes } from "node:crypto";
import { ensureBuilt } from "@/lib/runner/build";
import { runMain } from "@/lib/runner/run-main";
import { db, disconnectDb } from "@/lib/db/client";
import { loadPolicy } from "@/lib/server/retention";
import { projectOverview } from "@/lib/server/overview";
import { addMember, createUser, findMembership } from "@/lib/server/admin";
import { ensureListFixtures } from "./list-fixtures";
import { sessionGrid } from "@/lib/server/provenance";
import { type ListFacts, listPageVisits } from "./measure-list-pages";
import { explainLists } from "./measure-list-plans";
import {
  connect,
  measure,
  printTimings,
  requireDatabaseUrl,
  scaleTargets,
  startServer,
  type ScaleTargets,
  type Timing,
} from "./measure";

const ITERATIONS = env().BENCH_ITERATIONS ?? 40;
const WARMUP = env().BENCH_WARMUP ?? 5;
const BENCH_EMAIL = "bench@scale.invalid";

const BENCH_ACTOR = { type: "SYSTEM", label: "benchmark" } as const;
/** The act whose filtered pages are measured. */
const AUDIT_ACT = "original.pin";

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
  const now = new Date();
  const facts = await listFacts(targets, now);
  console.log(
    `Project "${targets.slug}": ${targets.sessions} sessions, ${targets.spans.toLocaleString("en")} spans; ` +
      `longest session ${targets.big.id} (${targets.big.spans.toLocaleString("en")} spans); ` +
      `${facts.refusals.toLocaleString("en")} refusals, ${facts.compactions.toLocaleString("en")} compactions without asking, ` +
      `${facts.imports.toLocaleString("en")} import jobs, ${facts.keys.all} API keys, ${facts.audit.all.toLocaleString("en")} audit events`,
  );
  console.log(`${ITERATIONS} sequential requests per page after ${WARMUP} warm-up requests\n`);

  const server = await startServer(url);
  const timings: Timing[] = [];
  const failures: string[] = [];
  try {
    const cookie = await signIn(server.base, user);
    const base = `/projects/${encodeURIComponent(targets.slug)}`;
    const visits = [
      { label: "project overview, 7 days", path: "", mustContain: "Refusals per", target: 500 },
      { label: "project overview, 90 days", path: "?range=90d", mustContain: "Refusals per", target: 500 },
      ...listPageVisits(facts),
      // An answer over the whole project names tens of thousands of blocking spans: a page of each list.
      {
        label: "evidence (system config, whole project)",
        path: "/evidence?q=modified-system-config",
        mustContain: "Blocking spans",
        target: 500,
      },
    ];
    for (const visit of visits) {
      // A page that fails is reported and the others still measured.
      try {
        timings.push(
          await measure(visit.label, pageView(server.base, cookie, `${base}${visit.path}`, visit.mustContain), {
            iterations: ITERATIONS,
            warmup: WARMUP,
            target: visit.target,
          }),
        );
      } catch (error) {
        failures.push(`${visit.label}: ${(error as Error).message}`);
      }
    }
  } finally {
    await server.stop();
  }

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
  for (const range of ["7d", "90d"] as const)
    timings.push(
      await measure(`project overview read model, ${range} (query alone)`, () => projectOverview(targets.projectId, { range }), {
        iterations: ITERATIONS,
        warmup: WARMUP,
        target: 300,
      }),
    );
  console.log("Render times over HTTP, the grid and overview queries:");
  printTimings(timings);
  for (const failure of failures) console.log(`  FAILED ${failure}`);
  if (failures.length > 0) process.exitCode = 1;

  console.log("\nQuery plans (EXPLAIN ANALYZE, BUFFERS):");
  const client = await connect(url);
  try {
    await explainLists(client, targets.projectId, facts, policy, now);
  } finally {
    await client.end();
  }
}

/** What the lists' pages and filters are built from: each list's size, and values its filters take. */
async function listFacts(targets: ScaleTargets, now: Date): Promise<ListFacts> {
  const projectId = targets.projectId;
  // The person filtered on: whoever acted most after the sweeper (a scan, once, outside the timings).
  const [{ person } = { person: "nobody" }] = await db().$queryRaw<Array<{ person: string }>>`
    select actor_label as person from audit_log where project_id = ${projectId}::uuid and actor_label <> 'sweeper'
     group by 1 order by count(*) desc limit 1`;
  const [row] = await db().$queryRaw<
    Array<{
      refusals: number;
      compactions: number;
      imports: number;
      failed: number;
      keys: number;
      active: number;
      audit: number;
      by_person: number;
      by_act: number;
      requester: string | null;
    }>
  >`
    select (select count(*) from refusal_event where project_id = ${projectId}::uuid)::int as refusals,
           (select count(*) from compaction where project_id = ${projectId}::uuid and not asked)::int as compactions,
           (select count(*) from import_job where project_id = ${projectId}::uuid)::int as imports,
           (select count(*) from import_job where project_id = ${projectId}::uuid and status = 'FAILED')::int as failed,
           (select count(*) from api_key where project_id = ${projectId}::uuid)::int as keys,
           (select count(*) from api_key where project_id = ${projectId}::uuid and revoked_at is null)::int as active,
           (select count(*) from audit_log where project_id = ${projectId}::uuid)::int as audit,
           (select count(*) from audit_log where project_id = ${projectId}::uuid and actor_label = ${person})::int as by_person,
           (select count(*) from audit_log where project_id = ${projectId}::uuid and act = ${AUDIT_ACT})::int as by_act,
           (select requester from refusal_event where project_id = ${projectId}::uuid
             group by requester order by count(*) desc limit 1) as requester`;
  const day = (offset: number) => new Date(now.getTime() - offset * 86_400_000).toISOString().slice(0, 10);
  return {
    sessions: targets.sessions,
    big: targets.big,
    refusals: row!.refusals,
    compactions: row!.compactions,
    imports: row!.imports,
    failedImports: row!.failed,
    keys: { all: row!.keys, active: row!.active, revoked: row!.keys - row!.active },
    audit: { all: row!.audit, person, personEvents: row!.by_person, act: AUDIT_ACT, actEvents: row!.by_act },
    requester: row!.requester ?? "nobody",
    week: { from: day(36), to: day(30) },
  };
}

runMain(async () => {
  try {
    await main();
  } finally {
    await disconnectDb();
  }
});

/**
 * The questions benchmark over HTTP: POST /api/v1/evidence/query as a runtime or a script asks it,
 * with a viewer key made for the run and deleted after it, each response read whole; judged afresh
 * (no stored verdicts), with the verdicts current, and over the last 90 days. The server is `next start` on a production
 * build (BENCH_HTTP=next, the default; built first if stale), or the same route handler on
 * node:http (BENCH_HTTP=handler: route-server.ts) where no build can be made.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { env } from "@/lib/core/env";
import { DAY_MS } from "@/lib/evidence/policy";
import { db } from "@/lib/db/client";
import { ensureBuilt } from "@/lib/runner/build";
import { createApiKey } from "@/lib/server/admin";
import { CLI } from "@/lib/server/audit";
import type { BenchReport } from "./bench-report";
import { freePort, type RunningServer, startServer } from "./measure";
import { CpuMeter } from "./cpu";
import type { RunOptions } from "./questions-cases";

export interface HttpCase {
  /** What the run is over, for the labels: the project and its size. */
  over: string;
  projectId: string;
  /** Verdicts an answer judged afresh keeps (as counted in process); the server's are awaited up to it. */
  keptVerdicts: number;
  forget: () => Promise<unknown>;
}

/** How long the server may take to keep the verdicts of an answer after sending it. */
const KEEP_WAIT_MS = 60_000;

export async function questionsOverHttp(
  report: BenchReport,
  url: string,
  c: HttpCase,
  options: RunOptions & { databaseMode?: "embedded" | "postgres" },
): Promise<void> {
  const phase = `over HTTP (${c.over})`;
  const how = env().BENCH_HTTP ?? "next";
  const timings = report.section(
    `${phase}, ${how === "next" ? "next start" : "the route handler on node:http (no production build)"}:`,
  );
  if (how === "next") await ensureBuilt();
  const key = await createApiKey(c.projectId, "bench:questions", "VIEWER", CLI);
  const serverEnv: Record<string, string> = options.databaseMode === "embedded" ? { CUSTODIAN_DATABASE_MODE: "embedded" } : {};
  const server = how === "next" ? await startServer(url, serverEnv) : await startRouteServer(url, serverEnv);
  try {
    let bytes = 0;
    const askOver = (scope: () => object) => async () => {
      const response = await fetch(`${server.base}/api/v1/evidence/query`, {
        method: "POST",
        headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" },
        body: JSON.stringify({ question: { canned: "modified-system-config" }, scope: scope() }),
      });
      const body = await response.text();
      if (response.status !== 200) throw new Error(`evidence query: HTTP ${response.status} ${body.slice(0, 200)}`);
      bytes = body.length;
    };
    const ask = askOver(() => ({}));
    // The server keeps an answer's verdicts after sending it: wait for them (as many as an answer
    // in process keeps), so that the next run starts from what a reviewer would meet.
    const kept = async () => {
      let n = 0;
      for (let waited = 0; waited < KEEP_WAIT_MS; waited += 50) {
        n = await db().questionVerdict.count({ where: { session: { projectId: c.projectId } } });
        if (n >= c.keptVerdicts) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(
        `the server kept ${n} of the ${c.keptVerdicts} verdicts an answer in process keeps within ${KEEP_WAIT_MS / 1000} s`,
      );
    };
    const runs = { iterations: options.iterations, warmup: options.warmup, cpu: new CpuMeter(options.cpuClient, server.pid) };
    await report.time(phase, timings, `POST /api/v1/evidence/query, ${c.over}, judged afresh`, ask, {
      ...runs,
      target: 300,
      before: async () => {
        await kept().catch(() => {}); // a run that kept nothing yet (the first) has nothing to wait for
        await c.forget();
      },
    });
    await report.time(phase, timings, `POST /api/v1/evidence/query, ${c.over}, verdicts current`, ask, {
      ...runs,
      target: 300,
      before: kept,
    });
    report.note(`Over HTTP (${c.over}): ${(bytes / 1e6).toFixed(2)} MB per answer (the first page of each list, and counts).`);
    // A time range is always judged afresh (verdicts are kept per session, for the whole session).
    await report.time(
      phase,
      timings,
      `POST /api/v1/evidence/query, ${c.over}, last 90 days (always judged afresh)`,
      askOver(() => ({ from: new Date(Date.now() - 90 * DAY_MS).toISOString() })),
      { ...runs, target: 300 },
    );
  } finally {
    await server.stop();
    await db().apiKey.delete({ where: { id: key.id } });
  }
}

/** route-server.ts in a process of its own, on a free port, once its health check answers. */
async function startRouteServer(databaseUrl: string, extraEnv: Record<string, string>): Promise<RunningServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const tsx = createRequire(import.meta.url).resolve("tsx/cli");
  const file = new URL("./route-server.ts", import.meta.url).pathname;
  const child = spawn(process.execPath, [tsx, file, String(port)], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DATABASE_URL: databaseUrl, CUSTODIAN_SWEEP_INTERVAL_MINUTES: "0", ...extraEnv },
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error("the route server exited before it was ready");
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) return { base, pid: child.pid!, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error("the route server did not become healthy within 60 s");
}

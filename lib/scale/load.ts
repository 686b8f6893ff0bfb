/**
 * Loading the scale data set into a database through whatever writes to it: a Postgres connection
 * (COPY from stdin, `npm run seed:scale`) or the embedded database's own COPY (the questions
 * benchmark's embedded run). Sessions are planned up front, built in a worker and written a
 * session per transaction, so generation and writing overlap.
 */
import { randomUUID } from "node:crypto";
import { Worker } from "node:worker_threads";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";
import type { BuildContext, BuiltChunk } from "./build";
import { COLUMNS, TABLES } from "./columns";
import { planSessions } from "./plan";
import type { WorkerReply, WorkerRequest } from "./worker";

/** What the loader writes through. */
export interface LoadTarget {
  query(text: string, values?: unknown[]): Promise<unknown>;
  /** COPY text-format lines (whole lines, escaped) into the table's columns. */
  copy(table: string, columns: readonly string[], text: string): Promise<void>;
}

export interface ScaleSize {
  slug: string;
  sessions: number;
  spans: number;
  /** Spans of the one long session. */
  big: number;
  seed: number;
}

export interface LoadTotals {
  sessions: number;
  spans: number;
  summaries: number;
  atoms: number;
  bytes: number;
}

/** Loads a scale project of this size; `progress` hears the spans and atoms written so far. */
export async function loadScaleProject(
  target: LoadTarget,
  size: ScaleSize,
  progress: (spans: number, atoms: number) => void = () => {},
): Promise<LoadTotals> {
  const now = new Date();
  const projectId = randomUUID();
  const policy = DEFAULT_POLICY;
  await target.query("insert into project (id, slug, name) values ($1, $2, $3)", [projectId, size.slug, "Scale test"]);
  await target.query(
    `insert into retention_policy (project_id, evidence_horizon_days, ttl_narrative_days, ttl_structured_days, ttl_side_effecting_days, evidence_workloads, system_config_prefixes)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [
      projectId,
      policy.evidenceHorizonDays,
      policy.ttlDays.NARRATIVE,
      policy.ttlDays.STRUCTURED,
      policy.ttlDays.SIDE_EFFECTING,
      policy.evidenceWorkloads,
      policy.systemConfigPrefixes,
    ],
  );
  const plans = planSessions({ sessions: size.sessions, spans: size.spans, bigSession: size.big, now, seed: size.seed });
  const ctx: BuildContext = { projectId, policy, now };
  const worker = startWorker();
  try {
    worker.postMessage({ type: "init", plans, ctx } satisfies WorkerRequest);
    const next = chunkStream(worker, 3);
    const totals: LoadTotals = { spans: 0, summaries: 0, atoms: 0, bytes: 0, sessions: 0 };
    let sessionId = "";
    for (let chunk = await next(); chunk; chunk = await next()) {
      if (chunk.session) {
        const s = chunk.session;
        sessionId = s.id;
        await target.query("begin");
        await target.query(
          `insert into session (id, project_id, external_id, runtime, title, cwd, started_at, last_activity_at, created_at)
           values ($1, $2, $3, $4, $5, $6, $7, $7, $7)`,
          [s.id, projectId, s.externalId, s.runtime, s.title, s.cwd, s.startedAt.toISOString().replace("Z", "")],
        );
      }
      for (const table of TABLES) await target.copy(table, COLUMNS[table], chunk.tables[table]);
      totals.spans += chunk.spans;
      totals.summaries += chunk.summaries;
      totals.atoms += chunk.atoms;
      totals.bytes += chunk.bytes;
      if (chunk.lastActivityAt) {
        await target.query("update session set last_activity_at = $2 where id = $1", [
          sessionId,
          chunk.lastActivityAt.toISOString().replace("Z", ""),
        ]);
        await target.query("commit");
        totals.sessions++;
      }
      progress(totals.spans, totals.atoms);
    }
    return totals;
  } finally {
    await worker.terminate();
  }
}

/** Chunks from the worker, a few requested ahead so generation and COPY overlap. */
function chunkStream(worker: Worker, prefetch: number) {
  const ready: WorkerReply[] = [];
  let waiting: ((reply: WorkerReply) => void) | null = null;
  worker.on("message", (reply: WorkerReply) => {
    if (waiting) {
      const w = waiting;
      waiting = null;
      w(reply);
    } else ready.push(reply);
  });
  const request = () => worker.postMessage({ type: "next" } satisfies WorkerRequest);
  for (let i = 0; i < prefetch; i++) request();
  return async (): Promise<BuiltChunk | null> => {
    const reply = ready.shift() ?? (await new Promise<WorkerReply>((resolve) => (waiting = resolve)));
    if (reply.type === "done") return null;
    request();
    return reply.chunk;
  };
}

function startWorker(): Worker {
  const file = new URL("./worker.ts", import.meta.url).href;
  // The worker is TypeScript too: register the same loader inside it before importing it.
  return new Worker(`import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(file)}); })`, {
    eval: true,
  });
}

/**
 * `npm run bench:hook`: a Claude Code pre-compact hook against a local server (`next start` on a
 * fresh database; built first if needed) on a long session: the transcript holds BENCH_HOOK_RECORDS
 * records (default 5,000: a real session's records repeated with fresh ids), and before each timed
 * run 100 new records are appended. A run is the hook's whole work: read and parse the transcript,
 * send the new spans, the server's ingest and the gate's dry run over every verbatim evidence span.
 *
 * Target: p95 under 300 ms for what the runtime waits for, a new process per compaction running
 * the plain JavaScript bundle through the command the installer writes (node start and module load
 * included).
 * Reported apart, as components of it: the same work in this process (runHook, no start-up), and
 * a few runs of the tsx fallback (TypeScript compiled at every start) for comparison.
 * Beside them, Claude Code's HTTP hooks on the same transcript (./hook-http.ts; target p95 under
 * 50 ms): no process is started, the server reads the file itself.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { env } from "@/lib/core/env";
import { disconnectDb } from "@/lib/db/client";
import { createTestDatabase } from "@/lib/db/test-database";
import { ensureBuilt } from "@/lib/runner/build";
import { runMain } from "@/lib/runner/run-main";
import { createApiKey, createProject } from "@/lib/server/admin";
import { CLI } from "@/lib/server/audit";
import { runHook } from "@/lib/cli/hook";
import { buildHookBundle } from "@/lib/cli/hook-build";
import type { ConnectionConfig } from "@/lib/cli/hook-config";
import { measureHttpHooks, searchIndexed } from "./hook-http";
import { connect, measure, printTimings, type RunningServer, startServer } from "./measure";

const RECORDS = Number(process.env.BENCH_HOOK_RECORDS ?? 5000);
const NEW_PER_RUN = 100;
const ITERATIONS = env().BENCH_ITERATIONS ?? 20;
const SESSION = "bench-hook-session";

/** The real session's records, repeated: every id made fresh per repetition, one session id. */
function recordStream(): () => string {
  const lines = readFileSync("lib/importers/fixtures/claude-code/spotter-tool-heavy.jsonl", "utf8")
    .split("\n")
    .filter((l) => l.trim());
  const original = (JSON.parse(lines.find((l) => l.includes('"sessionId"'))!) as { sessionId: string }).sessionId;
  let n = 0;
  return () => {
    const rep = Math.floor(n / lines.length);
    const line = lines[n % lines.length]!;
    n += 1;
    const fresh = (id: string) => {
      const h = createHash("sha256").update(`${rep}:${id}`).digest("hex");
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
    };
    return line
      .replaceAll(original, SESSION)
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, fresh)
      .replace(/(toolu_|call_)([A-Za-z0-9]+)/g, (_, p: string, id: string) => `${p}${id}r${rep}`);
  };
}

async function main() {
  await ensureBuilt();
  const database = await createTestDatabase("bench-hook");
  process.env.DATABASE_URL = database.url;
  let server: RunningServer | undefined;
  try {
    const project = await createProject({ slug: "bench-hook", name: "Bench hook" });
    const key = (await createApiKey(project.id, "bench", "OPERATOR", CLI)).key;
    await disconnectDb();
    const dir = mkdtempSync(join(tmpdir(), "custodian-bench-hook-"));
    // The HTTP hooks' server reads the transcript itself, from this folder only.
    server = await startServer(database.url, {
      CUSTODIAN_RATE_LIMIT_PER_MINUTE: "1000000",
      CUSTODIAN_HOOK_TRANSCRIPT_ROOTS: dir,
    });
    const transcript = join(dir, "session.jsonl");
    const next = recordStream();
    const records = (count: number) => `${Array.from({ length: count }, next).join("\n")}\n`;
    writeFileSync(transcript, records(RECORDS));
    const config: ConnectionConfig = {
      url: server.base,
      key,
      failClosed: true,
      timeoutMs: 60_000,
      ledgerLimit: 40,
      stateDir: join(dir, "state"),
    };
    const payload = JSON.stringify({
      session_id: SESSION,
      transcript_path: transcript,
      cwd: dir,
      hook_event_name: "PreCompact",
      trigger: "auto",
    });

    // Start-up times scale with how busy the machine is: say how busy it was.
    const machine = () =>
      `${availableParallelism()} cores, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" / ")} (1 / 5 / 15 min)`;
    console.log(`Machine: ${machine()}`);
    const first = performance.now();
    const initial = await runHook("claude-code", "pre-compact", payload, config);
    console.log(`Initial import of ${RECORDS} records: ${(performance.now() - first).toFixed(0)} ms (exit ${initial.exitCode})`);

    let last = initial;
    const timing = await measure(
      `in-process runHook (no process start), ${NEW_PER_RUN} new records of a ${RECORDS}+ record session`,
      async () => {
        last = await runHook("claude-code", "pre-compact", payload, config);
        if (last.exitCode !== 0 || last.stdout) throw new Error(`the hook did not allow: ${last.stderr}`);
      },
      {
        iterations: ITERATIONS,
        warmup: 2,
        before: async () => {
          await searchIndexed();
          appendFileSync(transcript, records(NEW_PER_RUN));
        },
      },
    );
    printTimings([timing]);

    // As the runtime runs it, and what the target is about: a new process per compaction, started
    // by the command the installer writes (node, the launcher, the plain JavaScript bundle); tsx on
    // the TypeScript entry is the fallback without a bundle, timed for comparison.
    const bundle = await buildHookBundle(join(dir, "hook.mjs"));
    const installed = [join(process.cwd(), "lib/cli/hook-launch.mjs"), bundle];
    const spawnEnv = {
      ...process.env,
      CUSTODIAN_URL: server.base,
      CUSTODIAN_KEY: key,
      CUSTODIAN_STATE_DIR: config.stateDir,
      CUSTODIAN_FAIL_CLOSED: "1",
    };
    const asProcess = (command: string, args: string[]) => async () => {
      const run = spawnSync(command, [...args, "hook", "claude-code", "pre-compact"], {
        input: payload,
        env: spawnEnv,
        encoding: "utf8",
      });
      if (run.status !== 0 || run.stdout) throw new Error(`the hook did not allow: ${run.stderr}`);
    };
    const appendNew = async () => {
      await searchIndexed();
      appendFileSync(transcript, records(NEW_PER_RUN));
    };
    const processes = [
      await measure(
        `new process, the installed command (node, launcher, bundle), ${NEW_PER_RUN} new records`,
        asProcess(process.execPath, installed),
        { iterations: ITERATIONS, warmup: 1, target: 300, before: appendNew },
      ),
      await measure(
        `new process, tsx on the TypeScript entry (fallback), ${NEW_PER_RUN} new records`,
        asProcess(join(process.cwd(), "node_modules/.bin/tsx"), [
          "--tsconfig",
          join(process.cwd(), "tsconfig.json"),
          join(process.cwd(), "lib/cli/hook-main.ts"),
        ]),
        { iterations: Math.min(ITERATIONS, 5), warmup: 0, before: appendNew },
      ),
    ];
    printTimings(processes);

    // Where a new process's time goes: node's own start, then node with the bundle loaded and
    // answering at once (a session-start that is not after a compaction and has no transcript
    // sends one small request: start-up plus the smallest round trip).
    const startOnly =
      (args: string[], input = "") =>
      async () => {
        const run = spawnSync(process.execPath, args, { input, env: spawnEnv, encoding: "utf8" });
        if (run.status !== 0) throw new Error(`exit ${run.status}: ${run.stderr}`);
      };
    const smallest = JSON.stringify({ session_id: SESSION, transcript_path: null, source: "startup" });
    printTimings([
      await measure("node start alone (node -e 0)", startOnly(["-e", "0"]), { iterations: ITERATIONS, warmup: 1 }),
      await measure(
        "new process, bundle, session-start without a transcript (start-up + one small request)",
        startOnly([...installed, "hook", "claude-code", "session-start"], smallest),
        { iterations: ITERATIONS, warmup: 1 },
      ),
    ]);
    const cpuClient = await connect(database.url).catch(() => undefined);
    printTimings(
      await measureHttpHooks({
        base: server.base,
        serverPid: server.pid,
        ...(cpuClient ? { cpuClient } : {}),
        key,
        projectId: project.id,
        session: SESSION,
        transcript,
        iterations: ITERATIONS,
        appendNew,
        newPerRun: NEW_PER_RUN,
      }),
    );
    await cpuClient?.end();
    console.log(`Machine after the runs: ${machine()}`);
  } finally {
    await server?.stop();
    await disconnectDb();
    await database.drop();
  }
}

runMain(main);

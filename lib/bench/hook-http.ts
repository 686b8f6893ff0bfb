/**
 * bench:hook's HTTP part: Claude Code's HTTP hooks against the same server and transcript, posted as
 * Claude Code posts them (the event's JSON, the key in the Authorization header). What the agent
 * waits for is the request: PreCompact waits for the capture and the gate; Stop is answered at once
 * and captured after the response, so before each Stop run the previous capture is let finish.
 * Beside wall time, each run's CPU (the server's, and the database's where it runs on this machine):
 * on a shared 2-core machine wall time moves with the neighbours, CPU far less.
 */
import { statSync } from "node:fs";
import type pg from "pg";
import { db } from "@/lib/db/client";
import { pendingSearchCount } from "@/lib/server/search";
import { CpuMeter } from "./cpu";
import { measure, type Timing } from "./measure";

/**
 * The server's search indexer has indexed what the last run stored: it runs a second after, in the
 * background, and a run that overlapped it would time the indexer too. A runtime's hooks come
 * seconds apart; a benchmark's come back to back.
 */
export async function searchIndexed(): Promise<void> {
  for (let waited = 0; waited < 60_000; waited += 20) {
    if ((await pendingSearchCount()) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the server's search indexer did not catch up within 60 s");
}

/** Target for what the agent waits for at each HTTP hook. */
export const HTTP_HOOK_TARGET_MS = 50;

export async function measureHttpHooks(options: {
  base: string;
  /** The server's process, whose CPU each run is charged. */
  serverPid: number;
  /** A connection to the server's database, to read its backends' CPU (none: not read). */
  cpuClient?: pg.ClientBase;
  key: string;
  projectId: string;
  session: string;
  transcript: string;
  iterations: number;
  appendNew: () => Promise<void>;
  newPerRun: number;
}): Promise<Timing[]> {
  const url = new URL("/api/v1/hooks/claude-code", options.base);
  const post =
    (event: string, extra: object = {}) =>
    async () => {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${options.key}` },
        body: JSON.stringify({
          session_id: options.session,
          transcript_path: options.transcript,
          cwd: "/home/dev/bench",
          permission_mode: "default",
          hook_event_name: event,
          ...extra,
        }),
      });
      const text = await response.text();
      if (response.status !== 204) throw new Error(`the ${event} hook answered ${response.status}: ${text}`);
    };
  /** The server's capture has read the file to its end: its cursor holds the file's size. */
  const settled = async () => {
    await searchIndexed();
    const size = statSync(options.transcript).size;
    for (let waited = 0; waited < 60_000; waited += 20) {
      const cursor = await db().transcriptCursor.findFirst({ where: { projectId: options.projectId }, select: { bytes: true } });
      if (cursor && Number(cursor.bytes) >= size) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error("the server's capture did not reach the end of the transcript within 60 s");
  };
  const preCompact = post("PreCompact", { trigger: "auto", custom_instructions: "" });
  // The server's first read of the file (its own cursor starts empty): not timed.
  await preCompact();
  // Each run starts once the server has captured the last one's records, with new ones appended.
  const runs = {
    iterations: options.iterations,
    warmup: 1,
    target: HTTP_HOOK_TARGET_MS,
    cpu: new CpuMeter(options.cpuClient, options.serverPid),
    before: async () => {
      await settled();
      await options.appendNew();
    },
  };
  return [
    await measure(
      `HTTP hook Stop (answered at once, captured after), ${options.newPerRun} new records`,
      post("Stop", { stop_hook_active: false }),
      runs,
    ),
    await measure(
      `HTTP hook PreCompact (capture and gate before the answer), ${options.newPerRun} new records`,
      preCompact,
      runs,
    ),
  ];
}

import { env } from "@/lib/core/env";
import { failInterruptedImports } from "@/lib/server/imports";
import { failInterruptedQuestionJobs, QUESTION_JOB_ABANDONED_AFTER_MS } from "@/lib/server/questions";
import { indexAllPending } from "@/lib/server/search";
import { runMaintenance } from "./sweep";

/**
 * In-server schedules. Each server sweeps; the sweeper's per-row conditional delete makes
 * concurrent sweeps from several servers safe (a row is deleted once, audited once).
 */
export function startBackgroundWork(): void {
  const holder = globalThis as unknown as { custodianBackground?: boolean };
  if (holder.custodianBackground) return;
  holder.custodianBackground = true;

  void closeInterruptedJobs();
  // A job the previous process was judging until just before this start is not silent long
  // enough yet: look again once it must be.
  setTimeout(() => void closeInterruptedQuestions(), QUESTION_JOB_ABANDONED_AFTER_MS + 1_000).unref();
  startSearchIndexer(env().CUSTODIAN_SEARCH_INDEX_INTERVAL_MS);

  const minutes = env().CUSTODIAN_SWEEP_INTERVAL_MINUTES;
  if (minutes <= 0) return; // 0 turns the schedule off (`npm run sweep` still works).
  const run = async () => {
    try {
      const result = await runMaintenance();
      if (result.deleted > 0)
        console.log(`Sweeper: deleted ${result.deleted} expired originals; ${result.lostSpanIds.length} spans moved to LOST.`);
    } catch (error) {
      console.error("Sweeper run failed", error);
    }
  };
  setTimeout(run, 10_000).unref();
  setInterval(run, minutes * 60_000).unref();
}

/** At start: jobs a previous process left running (imports, questions) are marked failed. */
export async function closeInterruptedJobs(now = new Date()): Promise<void> {
  await Promise.all([
    failInterruptedImports(now).catch((error) => console.error("Could not close interrupted imports", error)),
    closeInterruptedQuestions(now),
  ]);
}

async function closeInterruptedQuestions(now = new Date()): Promise<void> {
  await failInterruptedQuestionJobs(now).catch((error) => console.error("Could not close interrupted question jobs", error));
}

/**
 * The search indexer, run again `intervalMs` after each run ends (never two at once in a server;
 * several servers share the work, see lib/server/search/indexer.ts). A failure is said once until
 * a run succeeds again: a database that is away would otherwise fill the log every second.
 */
function startSearchIndexer(intervalMs: number): void {
  if (intervalMs <= 0) return;
  let failing = false;
  const run = async () => {
    try {
      await indexAllPending();
      failing = false;
    } catch (error) {
      if (!failing) console.error("Search indexer run failed (search still finds what is not indexed, more slowly)", error);
      failing = true;
    }
    setTimeout(() => void run(), intervalMs).unref();
  };
  setTimeout(() => void run(), intervalMs).unref();
}

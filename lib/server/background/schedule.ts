import { env } from "@/lib/core/env";
import { failInterruptedImports } from "@/lib/server/imports";
import { runMaintenance } from "./sweep";

/**
 * In-server schedules. Each server sweeps; the sweeper's per-row conditional delete makes
 * concurrent sweeps from several servers safe (a row is deleted once, audited once).
 */
export function startBackgroundWork(): void {
  const holder = globalThis as unknown as { custodianBackground?: boolean };
  if (holder.custodianBackground) return;
  holder.custodianBackground = true;

  void failInterruptedImports().catch((error) => console.error("Could not close interrupted imports", error));

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

import { committedMigrations } from "@/lib/db/migrations";
import { databaseMode, db } from "@/lib/db/client";

export interface Health {
  status: "ok" | "degraded";
  database: "embedded" | "postgres" | "unresponsive";
  migrations?: "current" | "pending";
}

/** How long health waits for the database before it says the database does not answer. */
export const HEALTH_WAIT_MS = 3_000;

/**
 * Health as a runtime or a load balancer sees it: the database answers and its schema is current.
 * It answers within HEALTH_WAIT_MS whatever the database does: a database busy behind a stuck lock
 * or transaction is `unresponsive` (degraded), and ok again as soon as it answers.
 */
export async function checkHealth(waitMs = HEALTH_WAIT_MS): Promise<Health> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), waitMs);
  });
  try {
    const applied = await Promise.race([
      db().$queryRaw<Array<{ migration_name: string }>>`
        select migration_name from _prisma_migrations where finished_at is not null and rolled_back_at is null`,
      late,
    ]);
    if (applied === null) return { status: "degraded", database: "unresponsive" };
    const appliedNames = new Set(applied.map((row) => row.migration_name));
    const pending = committedMigrations().some((name) => !appliedNames.has(name));
    return {
      status: pending ? "degraded" : "ok",
      database: databaseMode(),
      migrations: pending ? "pending" : "current",
    };
  } finally {
    clearTimeout(timer);
  }
}

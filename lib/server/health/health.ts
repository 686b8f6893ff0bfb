import { committedMigrations } from "@/lib/db/migrations";
import { databaseMode, db } from "@/lib/db/client";

export interface Health {
  status: "ok" | "degraded";
  database: "embedded" | "postgres";
  migrations: "current" | "pending";
}

/** Health as a runtime or a load balancer sees it: the database answers and its schema is current. */
export async function checkHealth(): Promise<Health> {
  const applied = await db().$queryRaw<Array<{ migration_name: string }>>`
    select migration_name from _prisma_migrations where finished_at is not null and rolled_back_at is null`;
  const appliedNames = new Set(applied.map((row) => row.migration_name));
  const pending = committedMigrations().some((name) => !appliedNames.has(name));
  return {
    status: pending ? "degraded" : "ok",
    database: databaseMode(),
    migrations: pending ? "pending" : "current",
  };
}

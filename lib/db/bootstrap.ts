import { env } from "@/lib/core/env";
import { openEmbeddedDatabase } from "./embedded";
import { applyMigrations } from "./migrations";
import { parseDatabaseUrl } from "./pg-pool";
import { installShardForms, isDistributed } from "./citus";
import { APP_ROLE, appRoleIsRestricted, grantAppRole, withClient } from "./roles";
import { assertReachable } from "./reachability";

export interface PreparedDatabase {
  /** Where the application connects, as the application's role. */
  url: string;
  mode: "embedded" | "postgres";
  /**
   * Whether the application's role is held to the audit log's rules (INSERT and SELECT only, not
   * its owner). False when DATABASE_URL is the owner itself (no MIGRATION_DATABASE_URL given).
   */
  auditLogProtected: boolean;
  /** Stops the embedded database if this process started it. */
  stop(): Promise<void>;
}

/**
 * Resolves the database this process runs on (DATABASE_URL, or the embedded default), checks it
 * answers, applies pending migrations as the owner (MIGRATION_DATABASE_URL, else DATABASE_URL),
 * grants the application's role its rights, and exports the application's URL to process.env for
 * the Prisma client and child processes.
 *
 * The embedded database runs migrations as its superuser, then sets its one shared session to the
 * application's role (custodian_app) for every connection that follows.
 */
export async function prepareDatabase(options: { migrate?: boolean } = {}): Promise<PreparedDatabase> {
  const { DATABASE_URL: configured, MIGRATION_DATABASE_URL: ownerUrl, CUSTODIAN_DATABASE_MODE: mode } = env();
  const migrate = options.migrate !== false;
  let prepared: PreparedDatabase;
  if (configured && mode !== "embedded") {
    const url = configured;
    await assertReachable(url);
    if (ownerUrl && ownerUrl !== url) await assertReachable(ownerUrl);
    const owner = ownerUrl ?? url;
    if (migrate) {
      await applyMigrations(owner);
      // On a Citus cluster the migrations leave trigger functions in their one-node form.
      await withClient(owner, async (client) => {
        if (await isDistributed(client)) await installShardForms(client);
      });
      const app = parseDatabaseUrl(url);
      if (app.user !== parseDatabaseUrl(owner).user) {
        await withClient(owner, (client) => grantAppRole(client, app.user, app.database));
      }
    }
    prepared = { url, mode: "postgres", auditLogProtected: await appRoleIsRestricted(url), stop: async () => {} };
  } else {
    const embedded = await openEmbeddedDatabase();
    prepared = { url: embedded.url, mode: "embedded", auditLogProtected: true, stop: () => embedded.stop() };
    // A database another process serves was migrated and restricted when that process opened it.
    if (embedded.owned) {
      try {
        if (migrate) await applyMigrations(embedded.url);
        await embedded.exec(
          `DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${APP_ROLE}') THEN CREATE ROLE ${APP_ROLE} NOLOGIN; END IF; END $$`,
        );
        await grantAppRole({ query: (sql) => embedded.exec(sql) }, APP_ROLE, parseDatabaseUrl(embedded.url).database);
        await embedded.restrictTo(APP_ROLE);
      } catch (error) {
        await prepared.stop();
        throw error;
      }
    }
  }
  if (!prepared.auditLogProtected) {
    console.warn(
      "custodian: warning: the application connects to Postgres as the owner of the audit log (or a superuser), " +
        "so it could erase it. Set DATABASE_URL to a role without those rights and MIGRATION_DATABASE_URL to the owner.",
    );
  }
  // The server and every process it starts never hold the owner's credentials.
  delete process.env.MIGRATION_DATABASE_URL;
  process.env.DATABASE_URL = prepared.url;
  process.env.CUSTODIAN_DATABASE_MODE = prepared.mode;
  return prepared;
}

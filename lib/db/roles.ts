import pg from "pg";
import { parseDatabaseUrl } from "./pg-pool";

/**
 * Two database roles: the owner, which runs the migrations and owns every table, and the
 * application's role, which the server and the CLI connect as. The application may read and write
 * the data, but on the audit log it may only INSERT and SELECT: it cannot UPDATE, DELETE or
 * TRUNCATE it, and, not being its owner, cannot ALTER it, disable or drop its triggers, nor move
 * the head of its hash chain. Granted afresh after every migration, so new tables are covered.
 */

/** The role the embedded database and the test databases run the application as. */
export const APP_ROLE = "custodian_app";

/** Tables the application's role may only read and append to (or, for the chain's head, only read). */
const APPEND_ONLY = ["audit_log"];
const READ_ONLY = ["audit_chain_head", "_prisma_migrations"];

function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The statements that give `role` exactly the application's rights on the current database. */
export function appRoleGrants(role: string): string {
  const r = ident(role);
  return [
    `GRANT CONNECT ON DATABASE ${ident("__DATABASE__")} TO ${r}`,
    `GRANT USAGE ON SCHEMA public TO ${r}`,
    `REVOKE ALL ON ALL TABLES IN SCHEMA public FROM ${r}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${r}`,
    ...[...APPEND_ONLY, ...READ_ONLY].map((t) => `REVOKE ALL ON ${ident(t)} FROM ${r}`),
    ...APPEND_ONLY.map((t) => `GRANT SELECT, INSERT ON ${ident(t)} TO ${r}`),
    ...READ_ONLY.map((t) => `GRANT SELECT ON ${ident(t)} TO ${r}`),
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${r}`,
  ].join(";\n");
}

/** Something that runs SQL as the owner: a `pg` client, or the embedded database itself. */
export interface SqlRunner {
  query(sql: string): Promise<unknown>;
}

/** Grants `role` the application's rights, as the owner, on the database `runner` is connected to. */
export async function grantAppRole(runner: SqlRunner, role: string, database: string): Promise<void> {
  await runner.query(appRoleGrants(role).replace(ident("__DATABASE__"), ident(database)));
}

/** Creates `role` if it does not exist (a role is the server's, not one database's): concurrent creators agree. */
export async function ensureRole(runner: SqlRunner, role: string, options: { login: boolean }): Promise<void> {
  const sql = `CREATE ROLE ${ident(role)} ${options.login ? "LOGIN" : "NOLOGIN"}`;
  try {
    await runner.query(
      `DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${role.replace(/'/g, "''")}') THEN ${sql}; END IF; END $$`,
    );
  } catch (error) {
    // Another process created it between the check and the CREATE.
    const code = (error as { code?: string }).code;
    if (code !== "42710" && code !== "23505") throw error;
  }
}

/** Runs `fn` with a client connected at `url`, closed afterwards. */
export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ ...parseDatabaseUrl(url), connectionTimeoutMillis: 5_000 });
  client.on("error", () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Whether the role at `appUrl` is held to the audit log's rules: not a superuser, not the owner of
 * audit_log nor a member of its owner. False means the audit log is append-only by trigger only.
 */
export async function appRoleIsRestricted(appUrl: string): Promise<boolean> {
  return withClient(appUrl, async (client) => {
    const { rows } = await client.query<{ restricted: boolean }>(
      `select not r.rolsuper and not pg_has_role(current_user, c.relowner, 'MEMBER') as restricted
         from pg_roles r, pg_class c
        where r.rolname = current_user and c.oid = 'public.audit_log'::regclass`,
    );
    return rows[0]?.restricted ?? false;
  });
}

import { createHash } from "node:crypto";
import type pg from "pg";
import { rawQuery } from "@/lib/db/client";
import { rejectUnstorableText } from "./text-fields";

export interface SessionInput {
  externalId: string;
  runtime: string;
  title?: string | null;
  cwd?: string | null;
  startedAt?: Date | null;
}

/** A session as upsertSession answers it. */
export interface UpsertedSession {
  id: string;
  projectId: string;
  externalId: string;
  runtime: string;
  title: string | null;
  cwd: string | null;
  startedAt: Date | null;
}

/**
 * A session's id, derived from its project and the runtime's external id: the same pair always
 * names the same id, so the primary key alone keeps one session per pair. On a Citus cluster the
 * session table is distributed by its id and cannot keep a unique key on (project, external id)
 * (docs/citus.md); on one node that key stays and holds sessions made before ids were derived.
 * A name-based UUID (version 5 layout) over sha256 of "project:external id".
 */
export function sessionIdFor(projectId: string, externalId: string): string {
  const hex = createHash("sha256").update(`${projectId.toLowerCase()}:${externalId}`, "utf8").digest("hex");
  const variant = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** What runs one statement: the pool, or a connection inside a transaction. */
type Queryable = Pick<pg.PoolClient, "query">;

/**
 * Creates the session for a runtime's external id, or updates what the runtime now says about it.
 * Which submission created it is decided by the insert itself (ON CONFLICT DO NOTHING RETURNING):
 * of concurrent first submissions exactly one reports `created` (the conflict is on the derived
 * id, or on one node on (project, external id) for a session made before). On `client`, it joins that
 * connection's transaction (an import creates its sessions with its spans, all or nothing).
 */
export async function upsertSession(
  projectId: string,
  input: SessionInput,
  client?: Queryable,
): Promise<{ session: UpsertedSession; created: boolean }> {
  rejectUnstorableText([
    ["externalId", input.externalId],
    ["runtime", input.runtime],
    ["title", input.title],
    ["cwd", input.cwd],
  ]);
  const run = async (text: string, values: unknown[]) =>
    client ? (await client.query<SessionRow>(text, values)).rows : await rawQuery<SessionRow>(text, values);
  // An ISO time cast to timestamp keeps its UTC digits, whatever the connection's time zone.
  const startedAt = input.startedAt ? input.startedAt.toISOString() : null;
  const inserted = await run(
    `insert into session (id, project_id, external_id, runtime, title, cwd, started_at)
     values ($1, $2, $3, $4, $5, $6, $7::timestamp)
     on conflict do nothing
     returning ${SESSION_COLUMNS}`,
    [
      sessionIdFor(projectId, input.externalId),
      projectId,
      input.externalId,
      input.runtime,
      input.title ?? null,
      input.cwd ?? null,
      startedAt,
    ],
  );
  if (inserted[0]) return { session: sessionOf(inserted[0]), created: true };
  // Fields left out are kept; the update waits for a concurrent creator's transaction to end. By
  // the derived id first (on a cluster, one shard), then by the pair (a session made before ids
  // were derived).
  const values = [
    projectId,
    input.externalId,
    input.runtime,
    input.title !== undefined,
    input.title ?? null,
    input.cwd !== undefined,
    input.cwd ?? null,
    input.startedAt !== undefined,
    startedAt,
    sessionIdFor(projectId, input.externalId),
  ];
  const update = (where: string) =>
    run(
      `update session set runtime = $3,
              title = case when $4 then $5 else title end,
              cwd = case when $6 then $7 else cwd end,
              started_at = case when $8 then $9::timestamp else started_at end
        where ${where}
        returning ${SESSION_COLUMNS}`,
      values,
    );
  let updated = await update("id = $10 and project_id = $1 and external_id = $2");
  if (!updated[0]) updated = await update("project_id = $1 and external_id = $2 and $10::uuid is not null");
  // Neither inserted nor found: its creator rolled back between the two statements; try again.
  if (!updated[0]) return upsertSession(projectId, input, client);
  return { session: sessionOf(updated[0]), created: false };
}

interface SessionRow {
  id: string;
  project_id: string;
  external_id: string;
  runtime: string;
  title: string | null;
  cwd: string | null;
  /** Milliseconds since the epoch of the UTC digits (the column is a timestamp without time zone). */
  started_at: number | string | null;
}

const SESSION_COLUMNS = `id::text as id, project_id::text as project_id, external_id, runtime, title, cwd,
  (extract(epoch from started_at) * 1000)::float8 as started_at`;
// (An immutable expression: a Citus cluster refuses others in the RETURNING of a write, as to_char.)

function sessionOf(row: SessionRow): UpsertedSession {
  return {
    id: row.id,
    projectId: row.project_id,
    externalId: row.external_id,
    runtime: row.runtime,
    title: row.title,
    cwd: row.cwd,
    startedAt: row.started_at === null ? null : new Date(Math.round(Number(row.started_at))),
  };
}

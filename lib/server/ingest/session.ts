import { randomUUID } from "node:crypto";
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

/** What runs one statement: the pool, or a connection inside a transaction. */
type Queryable = Pick<pg.PoolClient, "query">;

/**
 * Creates the session for a runtime's external id, or updates what the runtime now says about it.
 * Which submission created it is decided by the insert itself (ON CONFLICT DO NOTHING RETURNING):
 * of concurrent first submissions exactly one reports `created`. On `client`, it joins that
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
     on conflict (project_id, external_id) do nothing
     returning ${SESSION_COLUMNS}`,
    [randomUUID(), projectId, input.externalId, input.runtime, input.title ?? null, input.cwd ?? null, startedAt],
  );
  if (inserted[0]) return { session: sessionOf(inserted[0]), created: true };
  // Fields left out are kept; the update waits for a concurrent creator's transaction to end.
  const updated = await run(
    `update session set runtime = $3,
            title = case when $4 then $5 else title end,
            cwd = case when $6 then $7 else cwd end,
            started_at = case when $8 then $9::timestamp else started_at end
      where project_id = $1 and external_id = $2
      returning ${SESSION_COLUMNS}`,
    [
      projectId,
      input.externalId,
      input.runtime,
      input.title !== undefined,
      input.title ?? null,
      input.cwd !== undefined,
      input.cwd ?? null,
      input.startedAt !== undefined,
      startedAt,
    ],
  );
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
  /** ISO text in UTC (the column is a timestamp without time zone). */
  started_at: string | null;
}

const SESSION_COLUMNS = `id::text as id, project_id::text as project_id, external_id, runtime, title, cwd,
  to_char(started_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as started_at`;

function sessionOf(row: SessionRow): UpsertedSession {
  return {
    id: row.id,
    projectId: row.project_id,
    externalId: row.external_id,
    runtime: row.runtime,
    title: row.title,
    cwd: row.cwd,
    startedAt: row.started_at === null ? null : new Date(row.started_at),
  };
}

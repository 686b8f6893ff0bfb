/**
 * Rows of a question's large queries read a batch at a time, through server-side cursors in one
 * read-only transaction on the raw pool: however many atoms a scope holds, the server holds one
 * batch of them at a time.
 */
import { rawTransaction } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";

/** Rows per FETCH. */
export const FETCH_ROWS = 5000;

export interface Cursor<R> {
  /** The next rows; none once the query is exhausted. */
  next(): Promise<R[]>;
}

export type OpenCursor = <R>(query: Prisma.Sql, rows?: number) => Promise<Cursor<R>>;

/** One statement on the cursors' connection, its rows as the driver reads them. */
export type RunQuery = <R>(query: Prisma.Sql) => Promise<R[]>;

/**
 * Runs `fn` with a way to open cursors over queries and to run other statements, all on one
 * connection in one read-only transaction that ends when `fn` does. Every query `fn` makes goes
 * through them: a query on another connection would wait for this transaction where the database
 * serves one at a time (the embedded one), while the transaction waited for it.
 */
export function withCursors<T>(fn: (open: OpenCursor, query: RunQuery) => Promise<T>): Promise<T> {
  return rawTransaction(async (client) => {
    await client.query("set transaction read only");
    // Every row of a cursor is read: plan for all of them, not (the default) for the first tenth,
    // which ordered candidates by walking a whole index in order instead of sorting the few found.
    await client.query("set local cursor_tuple_fraction = 1");
    let opened = 0;
    const open: OpenCursor = async <R>(query: Prisma.Sql, rows = FETCH_ROWS) => {
      const name = `question_rows_${opened++}`;
      await client.query(`declare ${name} no scroll cursor for ${query.text}`, query.values);
      let done = false;
      return {
        async next(): Promise<R[]> {
          if (done) return [];
          const result = await client.query(`fetch ${rows} from ${name}`);
          if (result.rows.length < rows) done = true;
          return result.rows as R[];
        },
      };
    };
    const query: RunQuery = async <R>(sql: Prisma.Sql) => (await client.query(sql.text, sql.values)).rows as R[];
    return fn(open, query);
  });
}

/**
 * The rows of a cursor ordered by a key, grouped by it: each group whole, though a group may span
 * two batches.
 */
export async function* groupsOf<R>(cursor: Cursor<R>, keyOf: (row: R) => string): AsyncGenerator<{ key: string; rows: R[] }> {
  let open: { key: string; rows: R[] } | null = null;
  for (;;) {
    const rows = await cursor.next();
    if (rows.length === 0) break;
    for (const row of rows) {
      const key = keyOf(row);
      if (open && open.key === key) open.rows.push(row);
      else {
        if (open) yield open;
        open = { key, rows: [row] };
      }
    }
  }
  if (open) yield open;
}

/**
 * `work` on each item, `atOnce` of them running at a time (each statement on a connection of its
 * own), the next starting as soon as one ends; items are taken as they come.
 */
export async function sideBySide<T>(
  items: AsyncIterable<T> | Iterable<T>,
  atOnce: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const running = new Set<Promise<void>>();
  for await (const item of items) {
    if (running.size >= atOnce) await Promise.race(running);
    const job = work(item).finally(() => running.delete(job));
    running.add(job);
  }
  await Promise.all(running);
}

import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { distribute, installShardForms, REFERENCE_TABLES, registeredWorkers, SESSION_TABLES } from "@/lib/db/citus";
import { functionDefinitions, singleNodeForm } from "@/lib/db/shard-forms";
import { readSqlSources } from "@/lib/db/sql-sources";
import { parseDatabaseUrl } from "@/lib/db/pg-pool";
import { ownerDatabaseUrl } from "@/lib/db/test-database";
import { upsertSession } from "@/lib/server/ingest/session";

/**
 * The distributed layout on a Citus cluster (only in `npm run test:citus`): the tables where
 * docs/citus.md says, every key of a distributed table holding session_id, a second distribute
 * changing nothing, and the hot reads of one session planned as one task on one worker.
 */
const owner = new pg.Client(parseDatabaseUrl(ownerDatabaseUrl()));
const projectId = randomUUID();
let sessionId = "";

/** The Citus plan of `sql` as text. */
async function plan(sql: string, values: unknown[]): Promise<string> {
  const { rows } = await owner.query<{ "QUERY PLAN": string }>(`explain ${sql}`, values);
  return rows.map((r) => r["QUERY PLAN"]).join("\n");
}

beforeAll(async () => {
  await owner.connect();
  await owner.query("insert into project (id, slug, name) values ($1, $2, 'citus')", [projectId, `citus-${projectId}`]);
  const { session } = await upsertSession(projectId, { externalId: "hot-reads", runtime: "claude-code" });
  sessionId = session.id;
  await owner.query(
    `insert into span (session_id, id, seq, kind, occurred_at, class, class_reasons, byte_length, sha256)
     select $1, gen_random_uuid(), g, 'MESSAGE', now(), 'NARRATIVE', '[]', 10, repeat('a', 64) from generate_series(1, 20) g`,
    [sessionId],
  );
});

afterAll(async () => {
  await owner.end();
});

describe("the distributed layout", () => {
  it("distributes the session tables by session, colocated, and makes the instance's tables reference tables", async () => {
    const { rows } = await owner.query<{
      table_name: string;
      citus_table_type: string;
      distribution_column: string;
      colocation_id: number;
    }>("select table_name::text, citus_table_type, distribution_column, colocation_id from citus_tables");
    const byName = new Map(rows.map((r) => [r.table_name, r]));
    const colocation = byName.get("session")?.colocation_id;
    expect(byName.get("session")).toMatchObject({ citus_table_type: "distributed", distribution_column: "id" });
    for (const t of SESSION_TABLES) {
      expect(byName.get(t), t).toMatchObject({
        citus_table_type: "distributed",
        distribution_column: "session_id",
        colocation_id: colocation,
      });
    }
    for (const t of REFERENCE_TABLES) expect(byName.get(t)?.citus_table_type, t).toBe("reference");
  });

  it("holds session_id in every primary and unique key of a distributed table, and in every foreign key between two", async () => {
    const { rows } = await owner.query<{ rel: string; key: string }>(
      `select c.conrelid::regclass::text as rel, c.conname as key
         from pg_constraint c join pg_dist_partition p on p.logicalrelid = c.conrelid and p.partmethod = 'h'
        where (c.contype in ('p', 'u')
               or (c.contype = 'f' and exists (select 1 from pg_dist_partition r where r.logicalrelid = c.confrelid and r.partmethod = 'h')))
          and not (column_to_column_name(p.logicalrelid, p.partkey) = any (
            select a.attname::text from pg_attribute a where a.attrelid = c.conrelid and a.attnum = any (c.conkey)))
       union all
       select i.indrelid::regclass::text, i.indexrelid::regclass::text
         from pg_index i join pg_dist_partition p on p.logicalrelid = i.indrelid and p.partmethod = 'h'
        where i.indisunique
          and not (column_to_column_name(p.logicalrelid, p.partkey) = any (
            select a.attname::text from pg_attribute a where a.attrelid = i.indrelid and a.attnum = any (i.indkey)))`,
    );
    expect(rows).toEqual([]);
  });

  it("is done once: distributing again changes nothing", async () => {
    const server = parseDatabaseUrl(ownerDatabaseUrl());
    const done = await distribute(owner, { host: server.host, port: server.port }, { workers: await registeredWorkers(owner) });
    expect(done).toEqual([]);
  });

  it("runs the triggers' statements on the colocated shards on every node, in their Citus form again after a migration", async () => {
    const forms = async () =>
      (
        await owner.query<{ result: string }>(
          `select result from run_command_on_all_nodes($$select count(*) filter (where prosrc like '%custodian_shard_sql(%')
             || '/' || count(*) from pg_proc where proname in ('grid_counts_span_insert', 'session_counts_recount_at_risk')$$)`,
        )
      ).rows.map((r) => r.result);
    expect(await forms()).toEqual(["2/2", "2/2", "2/2"]);
    // A migration writes a function's one-node form (prisma/sql, lib/db/shard-forms.ts).
    const [source] = readSqlSources().filter((x) => x.file === "grid_counts_span_insert.sql");
    const [fn] = functionDefinitions(source?.text ?? "");
    await owner.query(singleNodeForm(fn?.definition ?? ""));
    expect(await forms()).toEqual(["1/2", "1/2", "1/2"]);
    expect(await installShardForms(owner)).toBe(1);
    expect(await forms()).toEqual(["2/2", "2/2", "2/2"]);
  });
});

describe("a session's hot reads", () => {
  it("are routed to the one worker that holds the session", async () => {
    const reads: Array<[string, string]> = [
      [
        "span list",
        "select id, seq, kind, class, transcript_state, original_state from span where session_id = $1 order by seq limit 50",
      ],
      [
        "grid counts",
        "select class, replacing_summary_id, code, sum(n) from span_grid_count where session_id = $1 group by 1, 2, 3",
      ],
      [
        "span with its original",
        `select s.id, s.seq, o.expires_at, o.pinned from span s
           left join span_original o on o.session_id = s.session_id and o.span_id = s.id
          where s.session_id = $1 and s.seq = 3`,
      ],
      [
        "session with its counters and spans",
        `select se.span_count, count(s.*) from session se join span s on s.session_id = se.id
          where se.id = $1 group by se.span_count`,
      ],
    ];
    for (const [name, sql] of reads) {
      const text = await plan(sql, [sessionId]);
      expect(text, name).toMatch(/Custom Scan \(Citus Adaptive\)/);
      expect(text, name).toMatch(/Task Count: 1\b/);
      expect(text, name).toMatch(/Node: host=\S+ port=\d+/);
    }
  });

  it("and a whole project's count is one task per shard, pushed down", async () => {
    const text = await plan(
      "select s.session_id, count(*) from span s join session se on se.id = s.session_id where se.project_id = $1 group by 1",
      [projectId],
    );
    expect(text).toMatch(/Task Count: (\d+)/);
    expect(Number(/Task Count: (\d+)/.exec(text)?.[1])).toBeGreaterThan(1);
  });

  it("keeps the session's counters by its triggers on the shards", async () => {
    const { rows } = await owner.query<{ span_count: number; seq_max: number }>(
      "select span_count, seq_max from session where id = $1",
      [sessionId],
    );
    expect(rows[0]).toEqual({ span_count: 20, seq_max: 20 });
  });
});

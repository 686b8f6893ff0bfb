/**
 * Rows the scale seed does not make but the dashboard's paged lists need to be measured: import
 * jobs and API keys of the scale project, added once (marked by their requester and name, so a
 * second run adds nothing) in one statement each.
 */
import type pg from "pg";

/** Import jobs and API keys the pages benchmark wants in the scale project. */
export const BENCH_IMPORT_JOBS = 5_000;
export const BENCH_API_KEYS = 400;
const MARK = "bench-fixture";

export async function ensureListFixtures(client: pg.ClientBase, projectId: string): Promise<{ imports: number; keys: number }> {
  const { rows: jobs } = await client.query<{ n: number }>(
    "select count(*)::int as n from import_job where project_id = $1 and requester = $2",
    [projectId, MARK],
  );
  if ((jobs[0]?.n ?? 0) < BENCH_IMPORT_JOBS) {
    // One in ten failed, one in fifty still running; the rest done with an outcome as the importer writes it.
    await client.query(
      `insert into import_job (id, project_id, format, status, byte_length, spans_done, spans_total, outcome, error, requester, created_at, updated_at)
       select gen_random_uuid(), $1::uuid, 'claude-code',
              (case when i % 10 = 0 then 'FAILED' when i % 50 = 1 then 'RUNNING' else 'DONE' end)::"ImportStatus",
              1000 + i * 37, i % 900, i % 900,
              case when i % 10 = 0 or i % 50 = 1 then null
                   else jsonb_build_object('format', 'claude-code', 'spans', i % 900, 'sessions', jsonb_build_array(),
                          'records', jsonb_build_object('read', i % 900 + 3, 'used', i % 900, 'ignored', 2, 'skipped', 1, 'ignoredByType', '{}'::jsonb)) end,
              case when i % 10 = 0 then 'not valid JSON at line 1' end,
              $2, now() - make_interval(mins => i), now() - make_interval(mins => i)
         from generate_series($3::int, $4::int) i`,
      [projectId, MARK, (jobs[0]?.n ?? 0) + 1, BENCH_IMPORT_JOBS],
    );
  }
  const { rows: keys } = await client.query<{ n: number }>(
    "select count(*)::int as n from api_key where project_id = $1 and name like $2",
    [projectId, `${MARK}-%`],
  );
  if ((keys[0]?.n ?? 0) < BENCH_API_KEYS) {
    await client.query(
      `insert into api_key (id, project_id, name, prefix, key_hash, role, created_at, revoked_at)
       select gen_random_uuid(), $1::uuid, $2 || '-' || i, 'cust_bench', encode(sha256(convert_to($1 || '-' || $2 || '-' || i, 'UTF8')), 'hex'),
              'OPERATOR', now() - make_interval(hours => i), case when i % 3 = 0 then now() - make_interval(hours => i - 1) end
         from generate_series($3::int, $4::int) i`,
      [projectId, MARK, (keys[0]?.n ?? 0) + 1, BENCH_API_KEYS],
    );
  }
  // Fresh statistics, and the visibility map index-only scans rely on (VACUUM, one table a statement).
  await client.query("vacuum analyze import_job");
  await client.query("vacuum analyze api_key");
  return { imports: BENCH_IMPORT_JOBS, keys: BENCH_API_KEYS };
}

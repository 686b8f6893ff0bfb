/**
 * A synthetic project for the questions benchmark's memory case, written straight into DATABASE_URL
 * with INSERT ... SELECT generate_series (minutes, where `npm run seed:scale` takes a quarter of an
 * hour): project BENCH_PROJECT (default "scale-synthetic") with one session of BENCH_SPANS (default
 * 1,000,000) write_file calls, each writing a path under /etc/app/, with its verbatim original and
 * five atoms (5M atoms): the tool call, the path (a FILE_WRITE), the argument name, a number and an
 * identifier, at the byte ranges they have in the body.
 */
import { randomUUID } from "node:crypto";
import { db, rawQuery, rawTransaction } from "@/lib/db/client";
import { createProject } from "@/lib/server/admin";

export async function buildSyntheticProject(slug: string, spans: number): Promise<void> {
  if (await db().project.findUnique({ where: { slug } })) return;
  const project = await createProject({ slug, name: `Synthetic ${spans.toLocaleString("en")} spans` });
  const sessionId = randomUUID();
  const step = 100_000;
  // Triggers off (a superuser's session_replication_role): they would update the one session row
  // a million times. The facts they keep are written here instead: the span's original state and
  // expiry, and the session's counts.
  await rawTransaction(async (client) => {
    await client.query("set local session_replication_role = replica");
    // The tables' secondary indexes are built once after the load, far faster than row by row.
    const indexes = await client.query<{ name: string; definition: string }>(
      `select indexname as name, indexdef as definition from pg_indexes i
        where schemaname = current_schema() and tablename in ('span', 'span_original', 'evidence_atom')
          and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    );
    for (const { name } of indexes.rows) await client.query(`drop index "${name}"`);
    await client.query(
      `insert into session (id, project_id, external_id, runtime, cwd, span_count, non_summary_count, seq_count, seq_min, seq_max)
       values ($1, $2, 'synthetic', 'claude-code', '/home/dev/app', $3, $3, $3, 0, $3 - 1)`,
      [sessionId, project.id, spans],
    );
    for (let from = 0; from < spans; from += step) {
      const to = Math.min(spans, from + step) - 1;
      await client.query(`
        create temporary table synthetic_body on commit drop as
          select g as seq, gen_random_uuid() as id,
                 convert_to('write_file(path="/etc/app/conf-' || g || '.yaml", mode="overwrite")', 'UTF8') as body
            from generate_series(${from}, ${to}) g`);
      await client.query(`
        insert into span (session_id, id, seq, kind, tool_name, occurred_at, class, class_reasons, byte_length, sha256,
                          original_state, original_expires_at)
        select '${sessionId}'::uuid, b.id, b.seq, 'TOOL_CALL', 'write_file', timestamp '2026-01-01' + b.seq * interval '1 second',
               'SIDE_EFFECTING', '[]'::jsonb, length(b.body), encode(sha256(b.body), 'hex'), 'HELD', timestamp '2126-01-01'
          from synthetic_body b`);
      await client.query(`
        insert into span_original (session_id, span_id, bytes, sha256, expires_at)
        select '${sessionId}'::uuid, b.id, b.body, encode(sha256(b.body), 'hex'), timestamp '2126-01-01' from synthetic_body b`);
      await client.query(`
        insert into evidence_atom (project_id, session_id, span_id, ordinal, kind, text, normalized, byte_start, byte_end, effect, arg_name)
        select '${project.id}'::uuid, '${sessionId}'::uuid, b.id, a.ordinal, a.kind::"AtomKind", a.text, a.text, a.byte_start, a.byte_start + length(a.text),
               a.effect::"SideEffectKind", a.arg_name
          from synthetic_body b
         cross join lateral (values
           (0, 'TOOL_CALL', 'write_file', 0, null, null),
           (1, 'PATH', '/etc/app/conf-' || b.seq || '.yaml', 17, 'FILE_WRITE', 'path'),
           (2, 'TOOL_ARG', 'path', 11, null, null),
           (3, 'NUMBER', b.seq::text, 31, null, null),
           (4, 'IDENTIFIER', 'overwrite', 45 + length(b.seq::text), null, null)
         ) as a(ordinal, kind, text, byte_start, effect, arg_name)`);
      await client.query("drop table synthetic_body");
      console.log(`  ${(to + 1).toLocaleString("en")} spans written`);
    }
    await client.query("set local maintenance_work_mem = '512MB'");
    for (const { definition } of indexes.rows) await client.query(definition);
    console.log(`  ${indexes.rows.length} indexes built`);
  });
  await rawQuery("analyze span", []);
  await rawQuery("analyze evidence_atom", []);
  await rawQuery("analyze span_original", []);
}

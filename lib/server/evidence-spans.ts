/**
 * The non-summary spans of an indexed evidence question: the seq gaps and the number of spans
 * checked (from session counts), the replaced spans that cannot be checked and so may block, and
 * the checkable spans with atoms some predicate could match, which may cite.
 */
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import type { KindCount } from "@/lib/evidence/manifest";
import {
  blockingClasses,
  judgeSpan,
  matchAtom,
  spanQualifies,
  type Blocker,
  type CompiledPredicate,
  type SeqGap,
} from "@/lib/evidence/questions";
import type { EvidentialClass, RetentionPolicy } from "@/lib/evidence/types";
import { atomCondition, regexNarrowing } from "./evidence-candidates";
import {
  ATOM_FIELDS,
  atomsBySpan,
  inSessions,
  inTime,
  keyOf,
  orderedAtoms,
  placed,
  questionSpan,
  SPAN_FACTS,
  spanKeys,
  timed,
  type AtomRow,
  type Judged,
  type Scope,
  type ScopeSessionRow,
  type SpanFactsRow,
} from "./evidence-scope";
import { retrievableWithPointer, sqlTime } from "./provenance-sql";

/** Replaced spans (not summaries) that the question engine sees: they have a seq. */
const REPLACED = Prisma.sql`s.transcript_state in ('RECLAIMED', 'RECLAIMED_HONEST') and s.kind <> 'SUMMARY' and s.seq is not null`;

/** Replaced spans that cannot be checked now: no pointer or original not held, or its TTL passed. */
export function uncheckedParts(now: Date): [gone: Prisma.Sql, expired: Prisma.Sql] {
  return [
    Prisma.sql`${REPLACED} and (not s.has_pointer or s.original_state <> 'HELD')`,
    Prisma.sql`${REPLACED} and s.has_pointer and s.original_state = 'HELD' and s.original_expires_at <= ${sqlTime(now)}`,
  ];
}

/**
 * Seq gaps (seqGaps in the engine, for sessions without a declared range: holes between the seqs
 * present), read only for sessions whose counts say they have one.
 */
export async function findGaps(sessions: ScopeSessionRow[]): Promise<SeqGap[]> {
  const holed = sessions.filter((s) => s.seq_count > 0 && s.seq_max! - s.seq_min! + 1 > s.seq_count).map((s) => s.id);
  if (holed.length === 0) return [];
  const rows = await db().$queryRaw<Array<{ session_id: string; from_seq: number; to_seq: number }>>`
    select session_id::text as session_id, seq + 1 as from_seq, next_seq - 1 as to_seq
      from (select session_id, seq, lead(seq) over (partition by session_id order by seq) as next_seq
              from span where session_id = any(${holed}::uuid[]) and seq is not null) x
     where next_seq > seq + 1
     order by session_id, seq`;
  const order = new Map(sessions.map((s, i) => [s.id, i]));
  return rows
    .map((r): SeqGap => ({ sessionId: r.session_id, fromSeq: r.from_seq, toSeq: r.to_seq }))
    .sort((a, b) => order.get(a.sessionId)! - order.get(b.sessionId)! || a.fromSeq - b.fromSeq);
}

/**
 * Spans whose atoms are checked, per session: every span the engine sees in scope less the
 * replaced ones that cannot be checked. Without a time range both come from session counts, but
 * for originals past their TTL and not yet swept.
 */
export async function countChecked(sessions: ScopeSessionRow[], scope: Scope, now: Date): Promise<Map<string, number>> {
  const [gone, expired] = uncheckedParts(now);
  const counts = (rows: Array<{ session_id: string; n: number }>) => new Map(rows.map((r) => [r.session_id, r.n]));
  if (!timed(scope)) {
    const passed = counts(
      await db().$queryRaw`
      select s.session_id::text as session_id, count(*)::int as n from span s where ${inSessions("s", scope)} and ${expired} group by s.session_id`,
    );
    return new Map(sessions.map((s) => [s.id, s.non_summary_count - s.unchecked_count - (passed.get(s.id) ?? 0)]));
  }
  const perSession = (condition: Prisma.Sql) =>
    db().$queryRaw<Array<{ session_id: string; n: number }>>`
      select s.session_id::text as session_id, count(*)::int as n from span s
       where ${inSessions("s", scope)} and ${inTime("s", scope)} and ${condition} group by s.session_id`;
  const [total, goneCounts, expiredCounts] = (
    await Promise.all([perSession(Prisma.sql`s.kind <> 'SUMMARY' and s.seq is not null`), perSession(gone), perSession(expired)])
  ).map(counts) as [Map<string, number>, Map<string, number>, Map<string, number>];
  return new Map(
    sessions.map((s) => [s.id, (total.get(s.id) ?? 0) - (goneCounts.get(s.id) ?? 0) - (expiredCounts.get(s.id) ?? 0)]),
  );
}

/** For EXPLAIN: the count of unchecked spans in scope. */
export function uncheckedCountQuery(scope: Scope, now: Date): Prisma.Sql {
  const [gone, expired] = uncheckedParts(now);
  return Prisma.sql`
    select ((select count(*) from span s where ${inSessions("s", scope)} and ${inTime("s", scope)} and ${gone})
          + (select count(*) from span s where ${inSessions("s", scope)} and ${inTime("s", scope)} and ${expired}))::int as n`;
}

const CLASS_CODES = ["NARRATIVE", "STRUCTURED", "SIDE_EFFECTING"] as const;
const STATE_CODES = ["VERBATIM", "RECLAIMED", "RECLAIMED_HONEST", "PRESERVED"] as const;
const ORIGINAL_CODES = ["ABSENT", "DELETED", "HASH_MISMATCH", "HELD"] as const;

/** An enum column as its index in `values` (comparing enums is cheap; printing them is not). */
function enumCode(column: string, values: readonly string[]): Prisma.Sql {
  return Prisma.raw(`(case ${column} ${values.map((v, i) => `when '${v}' then '${i}'`).join(" ")} end)`);
}

/**
 * Replaced spans that cannot be checked, one packed text per session (fields split by \x1f, rows
 * by \x1e), which tens of thousands of blockers cross to the server far faster than as rows: each
 * span's identity and everything the engine's verdict on such a span reads (class, transcript
 * state, pointer, the original's state and whether it could be retrieved now, what an honest
 * summary dropped), in seq order. Packing per session keeps each sort small (one sort of every
 * span in a project was most of the time). The unchecked-span index answers alone.
 */
export function uncheckedQuery(condition: Prisma.Sql, scope: Scope, classes: EvidentialClass[], now: Date): Prisma.Sql {
  return Prisma.sql`
    select s.session_id::text as session_id,
           string_agg(concat_ws(chr(31), s.id::text, s.seq::text,
                                ${enumCode("s.class", CLASS_CODES)}, ${enumCode("s.transcript_state", STATE_CODES)},
                                case when s.has_pointer then 't' else 'f' end, ${enumCode("s.original_state", ORIGINAL_CODES)},
                                case when s.original_expires_at is null or s.original_expires_at > ${sqlTime(now)} then 't' else 'f' end,
                                case when s.transcript_state = 'RECLAIMED_HONEST' then coalesce(s.replaced_dropped, '[]'::jsonb)::text else '' end),
                      chr(30) order by s.seq) as packed
      from span s
     where ${inSessions("s", scope)} and ${inTime("s", scope)} and ${condition} and s.class = any(${classes}::"EvidentialClass"[])
     group by s.session_id`;
}

/**
 * Replaced spans that cannot be checked and could hold a match: the blockers the engine finds
 * among them, in its order (sessions as in scope, then seq).
 */
export async function judgeUnchecked(
  predicates: CompiledPredicate[],
  scope: Scope,
  policy: RetentionPolicy,
  now: Date,
  cwdOf: (sessionId: string) => string | undefined,
  sessionIndex: ReadonlyMap<string, number>,
): Promise<Blocker[]> {
  const classes = blockingClasses(predicates);
  if (classes.length === 0) return [];
  const parts = await Promise.all(
    uncheckedParts(now).map((condition) =>
      db().$queryRaw<Array<{ session_id: string; packed: string }>>(uncheckedQuery(condition, scope, classes, now)),
    ),
  );
  // Spans alike in every fact the verdict reads get the same verdict, but for their names.
  const verdicts = new Map<string, Blocker | null>();
  const lists = parts.map((rows) => {
    const out: Blocker[] = [];
    rows.sort((a, b) => sessionIndex.get(a.session_id)! - sessionIndex.get(b.session_id)!);
    for (const { session_id: sessionId, packed: text } of rows) {
      // Each record: span and seq (the span a fixed-width uuid), then the verdict's facts.
      for (let at = 0; at < text.length; ) {
        const end = text.indexOf("\x1e", at);
        const stop = end < 0 ? text.length : end;
        const spanId = text.slice(at, at + 36);
        const seqEnd = text.indexOf("\x1f", at + 37);
        const seq = Number(text.slice(at + 37, seqEnd));
        const key = text.slice(seqEnd + 1, stop);
        at = stop + 1;
        let t = verdicts.get(key);
        if (t === undefined) {
          t = judgeUncheckedSpan([sessionId, spanId, String(seq), ...key.split("\x1f")], predicates, policy, now, cwdOf);
          verdicts.set(key, t);
        }
        // The dropped counts are shared by the group's blockers: read, never changed.
        if (t) {
          out.push({
            sessionId,
            spanId,
            seq,
            class: t.class,
            provenance: t.provenance,
            transcriptState: t.transcriptState,
            dropped: t.dropped,
            originalHeld: t.originalHeld,
            unblockBy: t.unblockBy,
            reason: t.reason,
          });
        }
      }
    }
    return out;
  });
  return lists.reduce((a, b) => mergeBySeq(a, b, sessionIndex));
}

/** Two lists of blockers of spans with seqs of their own, each in the engine's order, as one. */
function mergeBySeq(a: Blocker[], b: Blocker[], sessionIndex: ReadonlyMap<string, number>): Blocker[] {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out: Blocker[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    const order = sessionIndex.get(x.sessionId)! - sessionIndex.get(y.sessionId)! || x.seq - y.seq;
    if (order <= 0) {
      out.push(x);
      i++;
    } else {
      out.push(y);
      j++;
    }
  }
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

/**
 * The engine's verdict on one packed span it cannot check. It reads only the facts packed (the
 * original's expiry only through whether it could be retrieved now, which a passed TTL or none
 * stands for) and names the span in the blocker.
 */
function judgeUncheckedSpan(
  fields: string[],
  predicates: CompiledPredicate[],
  policy: RetentionPolicy,
  now: Date,
  cwdOf: (sessionId: string) => string | undefined,
): Blocker | null {
  const [sessionId, id, seq, cls, state, pointer, original, unexpired, dropped] = fields as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const originalState = ORIGINAL_CODES[Number(original)]!;
  const facts: SpanFactsRow = {
    session_id: sessionId,
    id,
    seq: Number(seq),
    kind: "TOOL_CALL", // not a summary: the query excludes them
    class: CLASS_CODES[Number(cls)]!,
    transcript_state: STATE_CODES[Number(state)]!,
    occurred_at: now,
    has_pointer: pointer === "t",
    original_state: originalState,
    original_expires_at: originalState === "HELD" && unexpired === "f" ? now : null,
    sha256: "",
    tool_name: null,
  };
  const extra = facts.transcript_state === "RECLAIMED_HONEST" ? { droppedByManifest: JSON.parse(dropped) as KindCount[] } : {};
  return judgeSpan(questionSpan(facts, facts.seq!, policy, now, extra), predicates, cwdOf(sessionId), new Map()).blocker;
}

/**
 * For EXPLAIN and for finding candidates: atoms in scope the predicate could match.
 *
 * A predicate on commands also needs a command of the span that could match its pattern. A span
 * is dropped here when the candidates hold all of its commands (counted in the commands index
 * alone) and none contains a literal the pattern requires; the rest come with their count of
 * commands, so the ones still to read are known.
 */
export function candidateAtomsQuery(p: CompiledPredicate, scope: Scope): Prisma.Sql {
  const candidates = Prisma.sql`select ${ATOM_FIELDS} from evidence_atom a where ${inSessions("a", scope)} and ${atomCondition("a", p)}`;
  if (!p.commandRegex) return candidates;
  const narrowing = regexNarrowing("c", p.commandRegex) ?? Prisma.sql`true`;
  return Prisma.sql`
    with candidate as materialized (
      select a.session_id, a.span_id, a.ordinal, a.kind, a.text, a.normalized, a.byte_start, a.byte_end, a.effect, a.negated, a.arg_name
        from evidence_atom a where ${inSessions("a", scope)} and ${atomCondition("a", p)}
    ),
    spans as materialized (
      select c.session_id, c.span_id,
             bool_or(c.kind = 'COMMAND' and not c.negated and ${narrowing}) as could_match,
             count(*) filter (where c.kind = 'COMMAND') as held
        from candidate c group by c.session_id, c.span_id
    ),
    kept as materialized (
      select s.session_id, s.span_id,
             (select count(*) from evidence_atom x where x.session_id = s.session_id and x.span_id = s.span_id and x.kind = 'COMMAND')::int as commands,
             s.could_match, s.held
        from spans s
    )
    select ${ATOM_FIELDS}, k.commands as span_commands
      from candidate a join kept k on k.session_id = a.session_id and k.span_id = a.span_id
     where k.could_match or k.held < k.commands`;
}

/**
 * Checkable spans with an atom some predicate could match, which the engine judges for citations.
 * Candidates come from the atom indexes; a span goes on only if some predicate holds for one of
 * its candidate atoms and for its tool name and commands (spanQualifies, matchAtom), and the
 * engine then judges it with every atom any predicate could match plus its tool calls and
 * commands (all its verdict reads) and cuts the cited bytes from the original, hashed again.
 * Originals found damaged, which the engine then cites without bytes, are returned to be recorded.
 */
export async function judgeCandidates(
  predicates: CompiledPredicate[],
  scope: Scope,
  policy: RetentionPolicy,
  now: Date,
  cwdOf: (sessionId: string) => string | undefined,
): Promise<{ judged: Judged[]; damaged: Array<{ sessionId: string; spanId: string }> }> {
  // Every predicate's candidates, merged by span: what the engine finally judges each span with.
  const atoms = new Map<string, Map<number, AtomRow>>();
  const merge = (bySpan: Map<string, Map<number, AtomRow>>) => {
    for (const [key, own] of bySpan) {
      const all = atoms.get(key);
      if (!all) atoms.set(key, new Map(own));
      else for (const [ordinal, row] of own) all.set(ordinal, row);
    }
  };
  // A span's facts and bytes are fetched as soon as one predicate holds for it, while the other
  // predicates' candidates are still being found.
  const requested = new Set<string>();
  const facts: Array<Promise<FactsRow[]>> = [];
  const fetchFacts = (spans: Array<{ session_id: string; id: string }>) => {
    const fresh = spans.filter((s) => !requested.has(keyOf(s.session_id, s.id)));
    for (const s of fresh) requested.add(keyOf(s.session_id, s.id));
    if (fresh.length > 0) facts.push(db().$queryRaw<FactsRow[]>(factsQuery(fresh, scope, now)));
  };

  await Promise.all(
    predicates.map(async (p) => {
      const rows = await db().$queryRaw<Array<AtomRow & { span_commands?: number }>>(candidateAtomsQuery(p, scope));
      const own = atomsBySpan(rows);
      const toolNames = await fetchSpanLevel(p, rows, own);
      merge(own);
      // The engine's tests on what this predicate needs: its candidates, and the span's tool calls,
      // commands and tool name; a span it could cite or leave undecidable goes on.
      const hits: Array<{ session_id: string; id: string }> = [];
      for (const [key, rowsOfSpan] of own) {
        const [sessionId, spanId] = key.split("/") as [string, string];
        const list = orderedAtoms(rowsOfSpan);
        const toolName = toolNames.get(key);
        const cwd = cwdOf(sessionId);
        if (
          spanQualifies(p, { atoms: list, ...(toolName ? { toolName } : {}) }) &&
          list.some((a) => matchAtom(p, a, cwd) !== "NO_MATCH")
        ) {
          hits.push({ session_id: sessionId, id: spanId });
        }
      }
      fetchFacts(hits);
    }),
  );

  const judged: Judged[] = [];
  const damaged: Array<{ sessionId: string; spanId: string }> = [];
  for (const row of (await Promise.all(facts)).flat()) {
    if (row.intact === false) damaged.push({ sessionId: row.session_id, spanId: row.id });
    const span = questionSpan(row, row.seq!, policy, now, {
      atoms: orderedAtoms(atoms.get(keyOf(row.session_id, row.id))),
      ...(row.body !== null ? { body: new Uint8Array(Buffer.from(row.body, "base64")) } : {}),
    });
    const verdict = judgeSpan(span, predicates, cwdOf(row.session_id), new Map());
    if (verdict.blocker || verdict.citations.length > 0)
      judged.push(placed(row, row.seq!, true, verdict.citations, verdict.blocker));
  }
  return { judged, damaged };
}

/**
 * For a predicate on commands or tool names, what its candidate spans still need: their commands
 * where the candidates do not already hold all of them, their tool calls, and their tool names.
 * The atoms are added to `own`; the tool names are returned.
 */
async function fetchSpanLevel(
  p: CompiledPredicate,
  rows: Array<AtomRow & { span_commands?: number }>,
  own: Map<string, Map<number, AtomRow>>,
): Promise<Map<string, string | null>> {
  const toolNames = new Map<string, string | null>();
  if (!p.commandRegex && !p.toolNames) return toolNames;
  const commandKeys = new Map<string, { session_id: string; id: string }>();
  const toolKeys = new Map<string, { session_id: string; id: string }>();
  for (const row of rows) {
    const key = keyOf(row.session_id, row.span_id);
    const span = { session_id: row.session_id, id: row.span_id };
    if (p.commandRegex) {
      const held = [...own.get(key)!.values()].filter((a) => a.kind === "COMMAND").length;
      if (held < (row.span_commands ?? 0)) commandKeys.set(key, span);
    }
    if (p.toolNames) toolKeys.set(key, span);
  }
  const levelQuery = (keys: Map<string, { session_id: string; id: string }>, kind: "COMMAND" | "TOOL_CALL") =>
    keys.size === 0
      ? Promise.resolve([] as AtomRow[])
      : db().$queryRaw<AtomRow[]>`
          select ${ATOM_FIELDS} from ${spanKeys([...keys.values()])} join evidence_atom a on a.session_id = k.session_id and a.span_id = k.span_id
           where a.kind = ${kind}::"AtomKind"`;
  const [commandAtoms, toolAtoms, names] = await Promise.all([
    levelQuery(commandKeys, "COMMAND"),
    levelQuery(toolKeys, "TOOL_CALL"),
    toolKeys.size > 0
      ? db().$queryRaw<Array<{ session_id: string; id: string; tool_name: string | null }>>`
          select s.session_id::text as session_id, s.id::text as id, s.tool_name
            from ${spanKeys([...toolKeys.values()])} join span s on s.session_id = k.session_id and s.id = k.span_id`
      : Promise.resolve([]),
  ]);
  for (const row of [...commandAtoms, ...toolAtoms]) own.get(keyOf(row.session_id, row.span_id))!.set(row.ordinal, row);
  for (const row of names) toolNames.set(keyOf(row.session_id, row.id), row.tool_name);
  return toolNames;
}

type FactsRow = SpanFactsRow & { intact: boolean | null; body: string | null };

/**
 * Checkable spans' facts, each with its original's bytes when they still hash to the span's
 * sha256: the engine cuts the cited bytes from them. Raw queries cannot return bytea here: the
 * bytes travel as base64.
 */
function factsQuery(spans: Array<{ session_id: string; id: string }>, scope: Scope, now: Date): Prisma.Sql {
  return Prisma.sql`
    select ${SPAN_FACTS}, v.intact, case when v.intact then encode(o.bytes, 'base64') end as body
      from ${spanKeys(spans)} join span s on s.session_id = k.session_id and s.id = k.span_id
      left join span_original o on o.session_id = s.session_id and o.span_id = s.id
      cross join lateral (select case when o.bytes is not null then encode(sha256(o.bytes), 'hex') = s.sha256 end as intact) v
     where s.kind <> 'SUMMARY' and s.seq is not null and ${inTime("s", scope)}
       and (s.transcript_state in ('VERBATIM', 'PRESERVED') or ${retrievableWithPointer("s", now)})`;
}

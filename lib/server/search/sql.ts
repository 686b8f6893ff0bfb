/**
 * The SQL of a search: which spans match (terms through span_search's indexes, filters on the
 * span), how they rank, and where a page starts. `x` is a source search reads (sources.ts), `s` the span.
 */
import { Prisma } from "@/lib/db/generated/client";
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import type { EvidentialClass, ProvenanceStatus, SpanKind } from "@/lib/evidence/types";
import { sqlTime, statusConditions } from "@/lib/server/provenance";
import type { SearchCursor } from "./cursor";
import type { SearchTerm } from "./query";

export interface SearchFilter {
  projectId: string;
  sessionId?: string;
  /** null: the main agent's spans; a string: one subagent's. */
  agentId?: string | null;
  kind?: SpanKind;
  class?: EvidentialClass;
  provenance?: ProvenanceStatus;
  outcomes?: readonly ToolOutcome[];
  from?: Date;
  to?: Date;
  now: Date;
  horizonDays: number;
}

/** A LIKE pattern that finds text as it is (its own %, _ and \ escaped). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A tsquery for the words starting with text, as one quoted lexeme. */
export function prefixQuery(text: string): string {
  return `'${text.replace(/\\/g, "\\\\").replace(/'/g, "''")}':*`;
}

function termCondition(term: SearchTerm): Prisma.Sql {
  if (term.kind === "substring") return Prisma.sql`x.body ilike ${containsPattern(term.text)}`;
  if (term.kind === "prefix") return Prisma.sql`x.words @@ to_tsquery('simple'::regconfig, ${prefixQuery(term.text)})`;
  return Prisma.sql`x.words @@ phraseto_tsquery('simple'::regconfig, ${term.text})`;
}

/** What ranks a match: its terms as words (a term found as a whole word counts, one found inside a word does not). */
export function rankQuery(terms: readonly SearchTerm[]): Prisma.Sql {
  if (terms.length === 0) return Prisma.sql`''::tsquery`;
  const parts = terms.map((term) => {
    if (term.kind === "substring") return Prisma.sql`plainto_tsquery('simple'::regconfig, ${term.text})`;
    if (term.kind === "prefix") return Prisma.sql`to_tsquery('simple'::regconfig, ${prefixQuery(term.text)})`;
    return Prisma.sql`phraseto_tsquery('simple'::regconfig, ${term.text})`;
  });
  return Prisma.sql`(${Prisma.join(parts, " || ")})`;
}

/** The project and the time range, on `x`'s own columns (its (project, occurred_at) index). */
function projectAndTime(f: SearchFilter): Prisma.Sql[] {
  const c: Prisma.Sql[] = [Prisma.sql`x.project_id = ${f.projectId}::uuid`];
  if (f.from) c.push(Prisma.sql`x.occurred_at >= ${sqlTime(f.from)}`);
  if (f.to) c.push(Prisma.sql`x.occurred_at < ${sqlTime(f.to)}`);
  return c;
}

export function searchWhere(terms: readonly SearchTerm[], f: SearchFilter): Prisma.Sql {
  const c = projectAndTime(f);
  for (const term of terms) c.push(termCondition(term));
  if (f.sessionId) c.push(Prisma.sql`x.session_id = ${f.sessionId}::uuid`);
  if (f.kind) c.push(Prisma.sql`s.kind = ${f.kind}::"SpanKind"`);
  if (f.class) c.push(Prisma.sql`s.class = ${f.class}::"EvidentialClass"`);
  if (f.agentId === null) c.push(Prisma.sql`s.agent_id is null`);
  else if (f.agentId !== undefined) c.push(Prisma.sql`s.agent_id = ${f.agentId}`);
  if (f.outcomes && f.outcomes.length > 0) c.push(Prisma.sql`s.outcome = any(${[...f.outcomes]}::"ToolOutcome"[])`);
  if (f.provenance) {
    // A summary's status rests on the spans it replaced (lineage), not on its own row: the filter
    // selects spans other than summaries.
    const status = statusConditions("s", { now: f.now, horizonDays: f.horizonDays });
    const key = f.provenance.toLowerCase() as keyof typeof status;
    c.push(Prisma.sql`s.kind <> 'SUMMARY' and ${status[key]}`);
  }
  return Prisma.join(c, " and ");
}

/**
 * Search's rows for the originals waiting in `source` (span_search_pending, or a batch taken from
 * it), projected as span_search holds them: the indexer writes exactly these.
 */
export function pendingRows(source: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    select se.project_id, p.session_id, p.span_id, s.occurred_at, t.body, to_tsvector('simple'::regconfig, t.body) as words, false as kept
      from ${source} p
      join span_original o on o.session_id = p.session_id and o.span_id = p.span_id
      join span s on s.session_id = p.session_id and s.id = p.span_id
      join session se on se.id = p.session_id
     cross join lateral (select custodian_search_text(o.bytes) as body) t
     where o.bytes is not null`;
}

/** Newest first: the (project, occurred_at) index's order, the page after the cursor's hit. */
export const NEWEST_ORDER = Prisma.sql`x.occurred_at desc, x.session_id, x.span_id`;

export function afterCursor(cursor: SearchCursor | undefined): Prisma.Sql {
  if (cursor?.order !== "newest") return Prisma.sql`true`;
  const at = sqlTime(new Date(cursor.at));
  return Prisma.sql`x.occurred_at <= ${at} and (x.occurred_at < ${at} or (x.session_id, x.span_id) > (${cursor.sessionId}::uuid, ${cursor.spanId}::uuid))`;
}

/** Rows of span_search a newest-first page walks before it falls back to the planner's plan. */
export const NEWEST_WALK_ROWS = 2000;

/**
 * The first NEWEST_WALK_ROWS of the project's indexed rows newest first, after the cursor and
 * within the time range (the (project, occurred_at) index, read in order): a page of a term with
 * many matches is found in them, filtered as they are walked, where the planner, misled by words
 * that come together more often than apart ("has been updated": 2,301 rows estimated, 73,322
 * found), would read and sort every match.
 */
export function newestWalk(f: SearchFilter, after: SearchCursor | undefined): Prisma.Sql {
  return Prisma.sql`(select x.project_id, x.session_id, x.span_id, x.occurred_at, x.body, x.words, x.kept from span_search x
                      where ${Prisma.join([...projectAndTime(f), afterCursor(after)], " and ")}
                      order by ${NEWEST_ORDER} limit ${NEWEST_WALK_ROWS})`;
}

/**
 * A page of matching spans as hits: the span's facts, where it matched (byte range in the original
 * and a snippet) and whether the original is longer than what search reads of it. A span whose
 * original the sweeper deleted matched in what is kept of it (its tool name and evidence atoms):
 * its hit says so, and names no byte range, since those bytes are gone.
 */
import type { RE2JS } from "re2js";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import type { EvidentialClass, SpanKind, TranscriptState } from "@/lib/evidence/types";
import { byteOffsetAt } from "./byte-offsets";
import { byteRange, firstMatch, type MatchRange, type Snippet, snippetAround } from "./locate";
import type { MatchKey } from "./sources";
import { pendingRows } from "./sql";

/** HELD: the match is in the original's bytes. EXPIRED: they are gone; it is in what is kept of the span. */
export type SearchHitOriginal = "HELD" | "EXPIRED";

export interface SearchHit {
  spanId: string;
  sessionId: string;
  sessionExternalId: string;
  sessionTitle: string | null;
  seq: number | null;
  kind: SpanKind;
  class: EvidentialClass;
  toolName: string | null;
  outcome: ToolOutcome | null;
  /** Null for the session's main agent. */
  agentId: string | null;
  transcriptState: TranscriptState;
  occurredAt: string;
  /** The original's length in bytes. */
  byteLength: number;
  original: SearchHitOriginal;
  /** The match in the original's bytes (end exclusive); null when no term could be placed or the original is gone. */
  byteStart: number | null;
  byteEnd: number | null;
  snippet: Snippet;
  /** The original is longer than the 64 KiB search reads: a match past that is not found. */
  partlyIndexed: boolean;
}

export interface HitRow {
  session_id: string;
  span_id: string;
  occurred_at: Date;
  body: string;
  /** body is what is kept of the span (its original's bytes are gone), not a projection of them. */
  kept: boolean;
  seq: number | null;
  kind: SpanKind;
  class: EvidentialClass;
  tool_name: string | null;
  outcome: ToolOutcome | null;
  agent_id: string | null;
  transcript_state: TranscriptState;
  byte_length: number;
  external_id: string;
  title: string | null;
}

/**
 * The rows of `keys` with their text, in the order of `keys`: one statement, each key read from
 * whichever source holds it now (one of the two, in the statement's snapshot). A span the sweeper
 * or a delete took since its key was read is left out.
 */
export async function hitRowsFor(keys: readonly MatchKey[]): Promise<HitRow[]> {
  if (keys.length === 0) return [];
  const pendingKey = Prisma.sql`(select q.session_id, q.span_id from span_search_pending q where q.session_id = k.session_id and q.span_id = k.span_id)`;
  const found = await db().$queryRaw<HitRow[]>`
    select k.session_id::text as session_id, k.span_id::text as span_id, x.occurred_at, x.body, x.kept, s.seq, s.kind::text as kind,
           s.class::text as class, s.tool_name, s.outcome::text as outcome, s.agent_id, s.transcript_state::text as transcript_state,
           s.byte_length, se.external_id, se.title
      from unnest(${keys.map((k) => k.session_id)}::uuid[], ${keys.map((k) => k.span_id)}::uuid[]) as k(session_id, span_id)
     cross join lateral (
            select i.occurred_at, i.body, i.kept from span_search i where i.session_id = k.session_id and i.span_id = k.span_id
            union all
            select p.occurred_at, p.body, p.kept from (${pendingRows(pendingKey)}) p
            limit 1) x
      join span s on s.session_id = k.session_id and s.id = k.span_id
      join session se on se.id = k.session_id`;
  const byKey = new Map(found.map((row) => [`${row.session_id}/${row.span_id}`, row]));
  return keys.flatMap((k) => byKey.get(`${k.session_id}/${k.span_id}`) ?? []);
}

/** A row as a hit, its match placed by the first of `patterns` lists that finds one. */
export function toHit(row: HitRow, patterns: ReadonlyArray<readonly RE2JS[]>): SearchHit {
  let range = null;
  for (const list of patterns) {
    range = firstMatch(row.body, list);
    if (range) break;
  }
  const at = range ?? { start: 0, end: 0 };
  const bytes = range && !row.kept ? byteRange(row.body, range) : null;
  return {
    spanId: row.span_id,
    sessionId: row.session_id,
    sessionExternalId: row.external_id,
    sessionTitle: row.title,
    seq: row.seq,
    kind: row.kind,
    class: row.class,
    toolName: row.tool_name,
    outcome: row.outcome,
    agentId: row.agent_id,
    transcriptState: row.transcript_state,
    occurredAt: row.occurred_at.toISOString(),
    byteLength: row.byte_length,
    original: row.kept ? "EXPIRED" : "HELD",
    byteStart: bytes?.byteStart ?? null,
    byteEnd: bytes?.byteEnd ?? null,
    // What is kept is one fact a line (custodian_kept_text): its snippet is the line that matched.
    snippet: row.kept ? snippetAround(...keptLine(row.body, at)) : snippetAround(row.body, at),
    partlyIndexed: !row.kept && byteOffsetAt(row.body, row.body.length) < row.byte_length,
  };
}

/** The line of a kept text holding `range`, with the range within it. */
function keptLine(text: string, range: MatchRange): [string, MatchRange] {
  const from = range.start === 0 ? 0 : text.lastIndexOf("\n", range.start - 1) + 1;
  const stop = text.indexOf("\n", range.end);
  const line = text.slice(from, stop === -1 ? text.length : stop);
  return [line, { start: range.start - from, end: Math.min(range.end - from, line.length) }];
}

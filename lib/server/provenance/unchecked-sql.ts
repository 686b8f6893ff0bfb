/**
 * "Unchecked" in SQL, once: a span of the transcript that a summary replaced (not a summary, in
 * sequence) whose original is gone whatever the clock (no pointer, or not held: the status rule's
 * NONE and LOST clauses). No NO can rest on it. custodian_span_unchecked (prisma/sql), which the
 * session counters call, is written from these clauses by `npm run sql:migration`
 * (status-sql.test.ts fails while the file and the rule differ); queries that read the partial
 * indexes built on the same clauses (span_unchecked_idx) use replacedInTranscript with
 * goneWhateverTheClock, and add heldPastTtl for the spans the clock has made unchecked since.
 * The pure engine's side is isCheckable (lib/evidence/questions/answer.ts): expiry-rules.db.test.ts
 * holds the two equal.
 */
import { Prisma } from "@/lib/db/generated/client";
import { STATUS_RULE, type StatusFacts } from "./status-sql";

interface ReplacedFacts {
  transcriptState: string;
  kind: string;
  seq: string;
}

/** The clause: a span of the transcript a summary replaced (not itself a summary, and in sequence). */
export const REPLACED_RULE = (r: ReplacedFacts) =>
  `${r.transcriptState} in ('RECLAIMED', 'RECLAIMED_HONEST') and ${r.kind} <> 'SUMMARY' and ${r.seq} is not null`;

/** custodian_span_unchecked's file, generated from REPLACED_RULE and STATUS_RULE (see the file's head). */
export function uncheckedFunction(): string {
  const r: ReplacedFacts = { transcriptState: "state", kind: "kind", seq: "seq" };
  const f: StatusFacts = { hasPointer: "has_pointer", state: "original", expires: "null", horizon: "null" };
  return `-- custodian_span_unchecked: its current definition (how to change it: prisma/sql/README.md).
-- Written from REPLACED_RULE and STATUS_RULE in lib/server/provenance (unchecked-sql.ts): edit the rules there, not here.

CREATE OR REPLACE FUNCTION public.custodian_span_unchecked(state "TranscriptState", kind "SpanKind", seq integer, has_pointer boolean, original "OriginalState")
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT ${REPLACED_RULE(r)} and (${STATUS_RULE.noPointer(f)} or ${STATUS_RULE.notHeld(f)})
$function$;
`;
}

/** REPLACED_RULE over span row `alias`. */
export function replacedInTranscript(alias: string): Prisma.Sql {
  return Prisma.raw(
    `(${REPLACED_RULE({ transcriptState: `${alias}.transcript_state`, kind: `${alias}.kind`, seq: `${alias}.seq` })})`,
  );
}

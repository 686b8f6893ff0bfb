/**
 * An evidence atom as stored: its row as raw SQL reads it (ATOM_FIELDS over an alias `a`), the
 * domain atom it becomes, and the atoms of given spans. Raw SQL, not Prisma's model reads: the
 * gate and the questions read thousands of atoms at a time, where mapping model rows cost several
 * times the query.
 */
import type { DbTx } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import type { Atom } from "@/lib/evidence/types";

export interface AtomRow {
  session_id: string;
  span_id: string;
  ordinal: number;
  kind: Atom["kind"];
  text: string;
  normalized: string;
  byte_start: number;
  byte_end: number;
  effect: Atom["effect"] | null;
  negated: boolean;
  arg_name: string | null;
}

export const ATOM_FIELDS = Prisma.sql`a.session_id::text as session_id, a.span_id::text as span_id, a.ordinal, a.kind::text as kind, a.text, a.normalized,
  a.byte_start, a.byte_end, a.effect::text as effect, a.negated, a.arg_name`;

/** The same columns of alias `a` as stored, uncast: for a subquery or CTE that ATOM_FIELDS reads from later. */
export const ATOM_COLUMNS = Prisma.raw(
  "a.session_id, a.span_id, a.ordinal, a.kind, a.text, a.normalized, a.byte_start, a.byte_end, a.effect, a.negated, a.arg_name",
);

export function toAtom(row: AtomRow): Atom {
  return {
    kind: row.kind,
    text: row.text,
    normalized: row.normalized,
    byteStart: row.byte_start,
    byteEnd: row.byte_end,
    ...(row.effect ? { effect: row.effect } : {}),
    ...(row.negated ? { negated: true } : {}),
    ...(row.arg_name ? { argName: row.arg_name } : {}),
  };
}

/** The atoms of these spans of a session, each span's in ordinal order (on `tx`: a transaction's reads stay in it). */
export async function loadAtoms(tx: DbTx, sessionId: string, spanIds: string[]): Promise<Map<string, Atom[]>> {
  const rows = await tx.$queryRaw<AtomRow[]>`
    select ${ATOM_FIELDS} from evidence_atom a
     where a.session_id = ${sessionId}::uuid and a.span_id = any(${spanIds}::uuid[])
     order by a.span_id, a.ordinal`;
  const bySpan = new Map<string, Atom[]>();
  for (const row of rows) {
    const list = bySpan.get(row.span_id);
    if (list) list.push(toAtom(row));
    else bySpan.set(row.span_id, [toAtom(row)]);
  }
  return bySpan;
}

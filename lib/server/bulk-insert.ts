import type { DbTx } from "@/lib/db/client";
import type { Atom } from "@/lib/evidence/types";

/**
 * Bulk inserts for ingest's hot path: one `INSERT ... SELECT FROM unnest(arrays)` per table, so a
 * batch of 500 spans and their atoms costs three statements with a fixed number of parameters
 * (Prisma's createMany sends a parameter per value and was the bulk of ingest time).
 */

export interface SpanRow {
  sessionId: string;
  id: string;
  seq: number;
  kind: string;
  role: string | null;
  toolName: string | null;
  toolInput: string | null;
  exitCode: number | null;
  occurredAt: Date;
  class: string;
  classReasons: string;
  byteLength: number;
  sha256: string;
  /**
   * The original about to be written with the span, as its verification will find it: passing it
   * spares a trigger an UPDATE of every new span (the trigger still corrects a wrong value).
   */
  original?: { expiresAt: Date; pinned?: boolean };
}

export interface OriginalRow {
  sessionId: string;
  spanId: string;
  bytes: Uint8Array;
  sha256: string;
  expiresAt: Date;
}

export interface AtomRow {
  sessionId: string;
  spanId: string;
  ordinal: number;
  kind: string;
  text: string;
  normalized: string;
  byteStart: number;
  byteEnd: number;
  effect: string | null;
  negated: boolean;
  argName: string | null;
}

/** Postgres text cannot hold NUL; such atoms cannot be indexed and are left to the verbatim bytes. */
function storable(atom: Atom): boolean {
  return !atom.text.includes("\u0000") && !atom.normalized.includes("\u0000");
}

/** A span's atoms as rows, numbered in order; the only place atoms become rows. */
export function atomRowsFor(sessionId: string, spanId: string, atoms: readonly Atom[]): AtomRow[] {
  return atoms.filter(storable).map((atom, ordinal) => ({
    sessionId,
    spanId,
    ordinal,
    kind: atom.kind,
    text: atom.text,
    normalized: atom.normalized,
    byteStart: atom.byteStart,
    byteEnd: atom.byteEnd,
    effect: atom.effect ?? null,
    negated: atom.negated ?? false,
    argName: atom.argName ?? null,
  }));
}

const column = <R, K extends keyof R>(rows: R[], key: K): Array<R[K]> => rows.map((r) => r[key]);

export async function insertSpanRows(tx: DbTx, rows: SpanRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.$executeRaw`
    insert into span (session_id, id, seq, kind, role, tool_name, tool_input, exit_code, occurred_at, class, class_reasons, byte_length, sha256,
                      original_state, original_expires_at)
    select session_id, id, seq, kind::"SpanKind", role, tool_name, tool_input::jsonb, exit_code, occurred_at, class::"EvidentialClass", class_reasons::jsonb, byte_length, sha256,
           original_state::"OriginalState", original_expires_at
      from unnest(${column(rows, "sessionId")}::uuid[], ${column(rows, "id")}::uuid[], ${column(rows, "seq")}::int[], ${column(rows, "kind")}::text[],
                  ${column(rows, "role")}::text[], ${column(rows, "toolName")}::text[], ${column(rows, "toolInput")}::text[], ${column(rows, "exitCode")}::int[],
                  ${column(rows, "occurredAt").map((d) => d.toISOString())}::timestamptz[], ${column(rows, "class")}::text[], ${column(rows, "classReasons")}::text[],
                  ${column(rows, "byteLength")}::int[], ${column(rows, "sha256")}::text[],
                  ${rows.map((r) => (r.original ? "HELD" : "ABSENT"))}::text[],
                  ${rows.map((r) => (r.original && !r.original.pinned ? r.original.expiresAt.toISOString() : null))}::timestamptz[])
        as t(session_id, id, seq, kind, role, tool_name, tool_input, exit_code, occurred_at, class, class_reasons, byte_length, sha256,
             original_state, original_expires_at)`;
}

export async function insertOriginalRows(tx: DbTx, rows: OriginalRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.$executeRaw`
    insert into span_original (session_id, span_id, bytes, sha256, expires_at)
    select session_id, span_id, decode(bytes_hex, 'hex'), sha256, expires_at
      from unnest(${column(rows, "sessionId")}::uuid[], ${column(rows, "spanId")}::uuid[],
                  ${rows.map((r) => Buffer.from(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength).toString("hex"))}::text[],
                  ${column(rows, "sha256")}::text[], ${column(rows, "expiresAt").map((d) => d.toISOString())}::timestamptz[])
        as t(session_id, span_id, bytes_hex, sha256, expires_at)`;
}

export async function insertAtomRows(tx: DbTx, rows: AtomRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.$executeRaw`
    insert into evidence_atom (session_id, span_id, ordinal, kind, text, normalized, byte_start, byte_end, effect, negated, arg_name)
    select session_id, span_id, ordinal, kind::"AtomKind", text, normalized, byte_start, byte_end, effect::"SideEffectKind", negated, arg_name
      from unnest(${column(rows, "sessionId")}::uuid[], ${column(rows, "spanId")}::uuid[], ${column(rows, "ordinal")}::int[], ${column(rows, "kind")}::text[],
                  ${column(rows, "text")}::text[], ${column(rows, "normalized")}::text[], ${column(rows, "byteStart")}::int[], ${column(rows, "byteEnd")}::int[],
                  ${column(rows, "effect")}::text[], ${column(rows, "negated")}::boolean[], ${column(rows, "argName")}::text[])
        as t(session_id, span_id, ordinal, kind, text, normalized, byte_start, byte_end, effect, negated, arg_name)`;
}

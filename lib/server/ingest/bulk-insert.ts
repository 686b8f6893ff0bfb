import { storableWords } from "@/lib/core/text";
import type pg from "pg";
import type { DbTx } from "@/lib/db/client";
import type { Atom } from "@/lib/evidence/types";
import { byteaField, copyLines, field, line } from "@/lib/db/copy";

/**
 * Bulk inserts for ingest's hot path: one `INSERT ... SELECT FROM unnest(arrays)` per table, so a
 * batch of 500 spans and their atoms costs three statements with a fixed number of parameters
 * (Prisma's createMany sends a parameter per value and was the bulk of ingest time). Ingest writes
 * on a raw connection (rawTransaction) with COPY where the server takes it, which costs Postgres
 * about a third less than the INSERTs (writeRows); other writers use Prisma (executeBulk).
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
  outcome: string | null;
  agentId: string | null;
  agentType: string | null;
  sourceLine: number | null;
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
  projectId: string;
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

/** The session a span belongs to, and its project: what each of the span's atom rows carries. */
export interface SpanOwner {
  projectId: string;
  sessionId: string;
}

/** A span's atoms as rows, numbered in order; the only place atoms become rows. */
export function atomRowsFor({ projectId, sessionId }: SpanOwner, spanId: string, atoms: readonly Atom[]): AtomRow[] {
  return atoms.map((atom, ordinal) => ({
    projectId,
    sessionId,
    spanId,
    ordinal,
    kind: atom.kind,
    // Postgres text cannot hold NUL: the atom is kept with it escaped (what precedes it still
    // matches a prefix), since a dropped atom would let a question answer NO over the span.
    text: storableWords(atom.text),
    normalized: storableWords(atom.normalized),
    byteStart: atom.byteStart,
    byteEnd: atom.byteEnd,
    effect: atom.effect ?? null,
    negated: atom.negated ?? false,
    argName: atom.argName === undefined ? null : storableWords(atom.argName),
  }));
}

const column = <R, K extends keyof R>(rows: R[], key: K): Array<R[K]> => rows.map((r) => r[key]);

/** A statement with numbered parameters, for a raw connection or Prisma's $executeRawUnsafe. */
export interface BulkStatement {
  text: string;
  values: unknown[];
}

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

function spanRowsInsert(rows: SpanRow[]): BulkStatement {
  return {
    text: `
      insert into span (session_id, id, seq, kind, role, tool_name, tool_input, exit_code, occurred_at, class, class_reasons, byte_length, sha256,
                        original_state, original_expires_at, outcome, agent_id, agent_type, source_line)
      select session_id, id, seq, kind::"SpanKind", role, tool_name, tool_input::jsonb, exit_code, occurred_at, class::"EvidentialClass", class_reasons::jsonb,
             byte_length, sha256, original_state::"OriginalState", original_expires_at, outcome::"ToolOutcome", agent_id, agent_type, source_line
        from unnest($1::uuid[], $2::uuid[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::timestamp[], $10::text[],
                    $11::text[], $12::int[], $13::text[], $14::text[], $15::timestamp[], $16::text[], $17::text[], $18::text[], $19::int[])
          as t(session_id, id, seq, kind, role, tool_name, tool_input, exit_code, occurred_at, class, class_reasons, byte_length, sha256,
               original_state, original_expires_at, outcome, agent_id, agent_type, source_line)`,
    values: [
      column(rows, "sessionId"),
      column(rows, "id"),
      column(rows, "seq"),
      column(rows, "kind"),
      column(rows, "role"),
      column(rows, "toolName"),
      column(rows, "toolInput"),
      column(rows, "exitCode"),
      column(rows, "occurredAt").map(iso),
      column(rows, "class"),
      column(rows, "classReasons"),
      column(rows, "byteLength"),
      column(rows, "sha256"),
      rows.map((r) => (r.original ? "HELD" : "ABSENT")),
      rows.map((r) => (r.original && !r.original.pinned ? iso(r.original.expiresAt) : null)),
      column(rows, "outcome"),
      column(rows, "agentId"),
      column(rows, "agentType"),
      column(rows, "sourceLine"),
    ],
  };
}

function originalRowsInsert(rows: OriginalRow[]): BulkStatement {
  return {
    text: `
      insert into span_original (session_id, span_id, bytes, sha256, expires_at)
      select session_id, span_id, decode(bytes_hex, 'hex'), sha256, expires_at
        from unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::timestamp[]) as t(session_id, span_id, bytes_hex, sha256, expires_at)`,
    values: [
      column(rows, "sessionId"),
      column(rows, "spanId"),
      rows.map((r) => Buffer.from(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength).toString("hex")),
      column(rows, "sha256"),
      column(rows, "expiresAt").map(iso),
    ],
  };
}

export function atomRowsInsert(rows: AtomRow[]): BulkStatement {
  return {
    text: `
      insert into evidence_atom (project_id, session_id, span_id, ordinal, kind, text, normalized, byte_start, byte_end, effect, negated, arg_name)
      select project_id, session_id, span_id, ordinal, kind::"AtomKind", text, normalized, byte_start, byte_end, effect::"SideEffectKind", negated, arg_name
        from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::int[], $5::text[], $6::text[], $7::text[], $8::int[], $9::int[], $10::text[], $11::boolean[], $12::text[])
          as t(project_id, session_id, span_id, ordinal, kind, text, normalized, byte_start, byte_end, effect, negated, arg_name)`,
    values: [
      column(rows, "projectId"),
      column(rows, "sessionId"),
      column(rows, "spanId"),
      column(rows, "ordinal"),
      column(rows, "kind"),
      column(rows, "text"),
      column(rows, "normalized"),
      column(rows, "byteStart"),
      column(rows, "byteEnd"),
      column(rows, "effect"),
      column(rows, "negated"),
      column(rows, "argName"),
    ],
  };
}

/** Runs a bulk statement in a Prisma transaction (paths where a batch is small: a summary's atoms). */
export async function executeBulk(tx: DbTx, statement: BulkStatement): Promise<void> {
  await tx.$executeRawUnsafe(statement.text, ...statement.values);
}

/** The rows one ingest batch writes. */
export interface BatchRows {
  spans: SpanRow[];
  originals: OriginalRow[];
  atoms: AtomRow[];
}

/** COPY on Postgres; INSERT from arrays where COPY is not served (the embedded server's socket). */
export type WriteMode = "copy" | "insert";

/** `copy`: the rows' COPY text when it was built ahead (copyTexts of exactly these rows). */
export async function writeRows(client: pg.ClientBase, rows: BatchRows, mode: WriteMode, copy?: CopyText[]): Promise<void> {
  if (rows.spans.length === 0) return;
  if (mode === "insert") {
    for (const statement of [spanRowsInsert(rows.spans), originalRowsInsert(rows.originals), atomRowsInsert(rows.atoms)]) {
      await client.query(statement.text, statement.values);
    }
    return;
  }
  for (const { table, columns, text } of copy ?? copyTexts(rows)) await copyLines(client, table, columns, text);
}

/** What COPY sends to one table: its columns and text lines. */
export interface CopyText {
  table: string;
  columns: readonly string[];
  text: string;
}

/** What COPY sends for each table of a batch, in the order they are written: columns and text lines. */
export function copyTexts(rows: BatchRows): CopyText[] {
  return [
    {
      table: "span",
      columns: [
        "session_id",
        "id",
        "seq",
        "kind",
        "role",
        "tool_name",
        "tool_input",
        "exit_code",
        "occurred_at",
        "class",
        "class_reasons",
        "byte_length",
        "sha256",
        "original_state",
        "original_expires_at",
        "outcome",
        "agent_id",
        "agent_type",
        "source_line",
      ],
      text: rows.spans
        .map((r) =>
          line([
            r.sessionId,
            r.id,
            field(r.seq),
            r.kind,
            field(r.role),
            field(r.toolName),
            field(r.toolInput),
            field(r.exitCode),
            field(r.occurredAt),
            r.class,
            field(r.classReasons),
            field(r.byteLength),
            r.sha256,
            r.original ? "HELD" : "ABSENT",
            field(r.original && !r.original.pinned ? r.original.expiresAt : null),
            field(r.outcome),
            field(r.agentId),
            field(r.agentType),
            field(r.sourceLine),
          ]),
        )
        .join(""),
    },
    {
      table: "span_original",
      columns: ["session_id", "span_id", "bytes", "sha256", "expires_at"],
      text: rows.originals.map((r) => line([r.sessionId, r.spanId, byteaField(r.bytes), r.sha256, field(r.expiresAt)])).join(""),
    },
    {
      table: "evidence_atom",
      columns: [
        "project_id",
        "session_id",
        "span_id",
        "ordinal",
        "kind",
        "text",
        "normalized",
        "byte_start",
        "byte_end",
        "effect",
        "negated",
        "arg_name",
      ],
      text: rows.atoms
        .map((r) =>
          line([
            r.projectId,
            r.sessionId,
            r.spanId,
            field(r.ordinal),
            r.kind,
            field(r.text),
            field(r.normalized),
            field(r.byteStart),
            field(r.byteEnd),
            field(r.effect),
            field(r.negated),
            field(r.argName),
          ]),
        )
        .join(""),
    },
  ];
}

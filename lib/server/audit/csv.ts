import type { AuditRow } from "./page";
import { type ChangeValue, presentAuditEvent } from "./present";

/**
 * One cell of a CSV file, RFC 4180: quoted when it holds a comma, a quote or a line break (quotes
 * doubled). A cell that a spreadsheet would read as a formula (= + - @, or a leading tab or CR) is
 * prefixed with an apostrophe, so an actor label or a reason someone typed can never run as one.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One record, CRLF-terminated as RFC 4180 asks. */
export function csvRow(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

export const AUDIT_CSV_HEADER = [
  "when",
  "who",
  "who_type",
  "act",
  "act_code",
  "target",
  "target_type",
  "target_id",
  "changes",
  "reason",
  "before_json",
  "after_json",
  "event_id",
] as const;

/**
 * An event's CSV cells: the words the page shows, every list in full (a bulk pin names each span),
 * and the recorded before/after as JSON, so the file stands on its own.
 */
export function auditCsvCells(row: AuditRow, projectSlug: string): string[] {
  const view = presentAuditEvent(row, projectSlug);
  return [
    view.when.toISOString(),
    view.who.label,
    view.who.typeInWords,
    view.act.words,
    view.act.code,
    view.target.label,
    view.target.type,
    view.target.id,
    view.changes.map((c) => `${c.field}: ${inFull(c.before)} -> ${inFull(c.after)}`).join("\n"),
    view.reason ?? "",
    json(row.before),
    json(row.after),
    view.id,
  ];
}

function inFull(value: ChangeValue | null): string {
  if (!value) return "(absent)";
  if (!value.items) return value.text;
  const list = value.items.map((i) => i.text).join(", ");
  return list === value.text ? value.text : `${value.text}: ${list}`;
}

function json(value: unknown): string {
  return value === null || value === undefined ? "" : JSON.stringify(value);
}

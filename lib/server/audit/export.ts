import { Prisma } from "@/lib/db/generated/client";
import { AUDIT_CSV_HEADER, auditCsvCells, csvRow } from "./csv";
import { AUDIT_COLUMNS, type AuditRow, readAuditRows } from "./page";
import { type AuditQuery, auditOrderSql, auditWhereSql } from "./page-query";

/** Rows read per statement while exporting. */
export const AUDIT_EXPORT_CHUNK = 1_000;

/**
 * The filtered audit log as CSV text, every matching event rather than one page, in the page's
 * order: a chunk of rows at a time, each chunk continuing after the last row of the one before
 * on (at, id) (keyset, so the thousandth chunk costs what the first did, and an event written
 * meanwhile neither repeats nor shifts a row). The header comes with the first chunk, which is
 * read before anything is yielded: a caller that awaits it can still answer a failure cleanly.
 */
export async function* auditCsvChunks(
  projectId: string,
  projectSlug: string,
  query: AuditQuery,
  chunk = AUDIT_EXPORT_CHUNK,
): AsyncGenerator<string> {
  const where = auditWhereSql(projectId, query);
  let head = csvRow(AUDIT_CSV_HEADER);
  let last: AuditRow | null = null;
  for (;;) {
    const rows: AuditRow[] = await readAuditRows(
      Prisma.sql`select ${AUDIT_COLUMNS} from audit_log a
                  where ${where} ${last ? after(last, query.sort) : Prisma.empty}
                  order by ${auditOrderSql(query.sort)}
                  limit ${chunk}`,
    );
    if (head || rows.length > 0) yield head + rows.map((row) => csvRow(auditCsvCells(row, projectSlug))).join("");
    head = "";
    if (rows.length < chunk) return;
    last = rows[rows.length - 1]!;
  }
}

/**
 * Past the previous chunk's last row. The bare bound on "at" repeats the row comparison in a form
 * the (project_id, at) index can start from.
 */
function after(last: AuditRow, sort: AuditQuery["sort"]): Prisma.Sql {
  return sort === "oldest"
    ? Prisma.sql`and a."at" >= ${last.at} and (a."at", a.id) > (${last.at}, ${last.id}::uuid)`
    : Prisma.sql`and a."at" <= ${last.at} and (a."at", a.id) < (${last.at}, ${last.id}::uuid)`;
}

/** A file name that says what it holds: the project, and today's date. */
export function auditCsvFileName(projectSlug: string, now = new Date()): string {
  const safe = projectSlug.replace(/[^A-Za-z0-9_-]/g, "_");
  return `audit-log-${safe}-${now.toISOString().slice(0, 10)}.csv`;
}

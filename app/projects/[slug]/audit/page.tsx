import Link from "next/link";
import { AuditLogFilters } from "@/components/AuditLogFilters";
import { AuditLogTable } from "@/components/AuditLogTable";
import { projectHref } from "@/components/project-href";
import { requireMember } from "@/lib/auth/project-access";
import { AppError } from "@/lib/core/errors";
import {
  AUDIT_PAGE_SIZE,
  type AuditPage,
  actInWords,
  auditQueryParams,
  listAuditPage,
  parseAuditQuery,
  presentAuditEvent,
} from "@/lib/server/audit";

export const metadata = { title: "Audit log" };

export default async function AuditLogPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { project } = await requireMember((await params).slug);
  const path = projectHref(project.slug, "/audit");
  let log: AuditPage;
  try {
    log = await listAuditPage(project.id, parseAuditQuery(await searchParams));
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "VALIDATION_FAILED") throw error;
    return (
      <>
        <h1>Audit log</h1>
        <div className="panel error-text" role="alert">
          <p>That filter is not valid:</p>
          <ul>
            {(error.fields ?? []).map((f) => (
              <li key={f.path}>
                {f.path}: {f.message}
              </li>
            ))}
          </ul>
          <Link href={path}>Show the whole log</Link>
        </div>
      </>
    );
  }
  const { query } = log;
  const withPage = (page: number) => {
    const text = auditQueryParams(query, page).toString();
    return text ? `${path}?${text}` : path;
  };
  const filters = auditQueryParams(query).toString();
  const filtered = Boolean(
    query.person || query.act || query.range || query.from || query.to || query.targetType || query.targetId,
  );
  return (
    <>
      <h1>Audit log</h1>
      <p className="subtitle">Every operator, admin and sweeper act in {project.name}, append-only and hash-chained.</p>
      <AuditLogFilters
        action={path}
        query={query}
        people={log.people}
        acts={log.acts.map((code) => ({ code, words: actInWords(code) }))}
        exportHref={`${path}/export.csv${filters ? `?${filters}` : ""}`}
      />
      <AuditLogTable
        events={log.rows.map((row) => presentAuditEvent(row, project.slug))}
        window={{
          page: log.page,
          pages: log.pages,
          start: (log.page - 1) * AUDIT_PAGE_SIZE,
          end: (log.page - 1) * AUDIT_PAGE_SIZE + log.rows.length,
          total: log.total,
        }}
        hrefFor={withPage}
        filtered={filtered}
      />
    </>
  );
}

import { ImportFilters } from "@/components/ImportFilters";
import { ImportList } from "@/components/ImportList";
import { ImportUpload } from "@/components/ImportUpload";
import { can } from "@/lib/core/permissions";
import { ListQueryError } from "@/components/ListQueryError";
import { projectHref } from "@/components/project-href";
import { requireMember } from "@/lib/auth/project-access";
import { AppError } from "@/lib/core/errors";
import {
  IMPORT_LIST_DEFAULTS,
  type ImportListPage,
  listImportPage,
  listQueryParams,
  type RawSearchParams,
  withQuery,
} from "@/lib/server/dashboard";

export const metadata = { title: "Imports" };

/** A project's transcript imports that ran in the background, a page at a time with the total. */
export default async function ImportsPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<RawSearchParams>;
}) {
  const { project, role } = await requireMember((await params).slug);
  const path = projectHref(project.slug, "/imports");
  let list: ImportListPage;
  try {
    list = await listImportPage(project.id, await searchParams);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "VALIDATION_FAILED") throw error;
    return <ListQueryError title="Imports" error={error} resetHref={path} resetLabel="Show every import" />;
  }
  return (
    <>
      <h1>Imports</h1>
      <p className="subtitle">
        Transcript files imported into {project.name} in the background: what each read, used and skipped.
      </p>
      {can(role, "imports:write") ? (
        <section className="panel" aria-label="Import" style={{ marginBottom: 16 }}>
          <ImportUpload slug={project.slug} />
        </section>
      ) : null}
      <ImportFilters action={path} query={list.query} />
      <ImportList
        rows={list.rows}
        window={{
          page: list.page,
          pages: list.pages,
          start: (list.page - 1) * list.pageSize,
          end: (list.page - 1) * list.pageSize + list.rows.length,
          total: list.total,
        }}
        hrefFor={(n) => withQuery(path, listQueryParams(list.query, IMPORT_LIST_DEFAULTS, { page: n }))}
        filtered={Boolean(list.query.status)}
      />
    </>
  );
}

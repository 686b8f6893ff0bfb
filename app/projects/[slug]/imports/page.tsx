import { ImportFilters } from "@/components/ImportFilters";
import { ImportsLive } from "@/components/ImportsLive";
import { ListQueryError } from "@/components/ListQueryError";
import { projectHref } from "@/components/project-href";
import { TranscriptsAtRisk } from "@/components/TranscriptsAtRisk";
import { requireMember } from "@/lib/auth/project-access";
import { AppError } from "@/lib/core/errors";
import { can } from "@/lib/core/permissions";
import { AT_RISK_WARN_DAYS, transcriptsAtRisk } from "@/lib/server/capture";
import { type ImportListPage, importListJson, listImportPage, type RawSearchParams } from "@/lib/server/dashboard";

export const metadata = { title: "Imports" };

/**
 * A project's transcript imports, a page at a time with the total: the upload (for those who may
 * import), the local transcripts at risk of the runtimes' own cleanup, and the list, live while an
 * import runs.
 */
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
  const now = new Date();
  const risks = await transcriptsAtRisk(project.id, now, AT_RISK_WARN_DAYS);
  return (
    <>
      <h1>Imports</h1>
      <p className="subtitle">
        Transcript files imported into {project.name}: what each read, used, ignored and skipped, and the sessions it made.
      </p>
      <TranscriptsAtRisk risks={risks} now={now} withinDays={AT_RISK_WARN_DAYS} />
      <ImportsLive
        slug={project.slug}
        canImport={can(role, "imports:write")}
        initial={importListJson(list)}
        filters={<ImportFilters action={path} query={list.query} />}
      />
    </>
  );
}

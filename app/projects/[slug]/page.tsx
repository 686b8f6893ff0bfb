import { OverviewDashboard } from "@/components/OverviewDashboard";
import { projectHref } from "@/components/project-href";
import { requireMember } from "@/lib/auth/project-access";
import { AppError } from "@/lib/core/errors";
import { type OverviewRange, parseOverviewRange, projectOverview } from "@/lib/server/overview";

export const metadata = { title: "Overview" };

/**
 * A project's first page: what an ops team watches. Membership is checked first; the figures are
 * rendered here with the page, then the client polls the overview route for fresh ones.
 */
export default async function ProjectOverviewPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { project } = await requireMember((await params).slug);
  const raw = (await searchParams).range;
  let range: OverviewRange;
  try {
    range = parseOverviewRange(typeof raw === "string" ? raw : raw?.[0]);
  } catch (error) {
    if (error instanceof AppError && error.code === "VALIDATION_FAILED") {
      return (
        <div className="panel error-text" role="alert">
          There is no range “{String(raw)}”. <a href={projectHref(project.slug)}>Show the last 7 days</a>.
        </div>
      );
    }
    throw error;
  }
  const initial = await projectOverview(project.id, { range });
  return (
    <>
      <h1>{project.name}</h1>
      <p className="subtitle">
        Refusals, compactions done without asking, evidence lost and at risk, expiries and storage. Times are UTC.
      </p>
      <OverviewDashboard slug={project.slug} initial={initial} />
    </>
  );
}

import { OverviewDashboard } from "@/components/OverviewDashboard";
import { projectHref } from "@/components/project-href";
import { requireMember } from "@/lib/auth/project-access";
import { AppError } from "@/lib/core/errors";
import { parseOverviewView, projectOverview } from "@/lib/server/overview";

export const metadata = { title: "Overview" };

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

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
  const query = await searchParams;
  const first = (key: string) => {
    const value = query[key];
    return typeof value === "string" ? value : value?.[0];
  };
  let view: ReturnType<typeof parseOverviewView>;
  try {
    view = parseOverviewView({ range: first("range"), from: first("from"), to: first("to") }, new Date());
  } catch (error) {
    if (error instanceof AppError && error.code === "VALIDATION_FAILED") {
      // Name the field and what it wants ("from: Expected a date as YYYY-MM-DD"), not only the value.
      const field = error.fields?.[0];
      const value = field ? first(field.path) : first("range");
      return (
        <>
          <h1>{project.name}</h1>
          <div className="panel error-text" role="alert">
            {field
              ? `That range cannot be shown: ${field.path} is “${value ?? ""}”; ${lowerFirst(field.message.replace(/\.$/, ""))}.`
              : `There is no range “${value ?? ""}”.`}{" "}
            <a href={projectHref(project.slug)}>Show the last 7 days</a>.
          </div>
        </>
      );
    }
    throw error;
  }
  const initial = await projectOverview(project.id, view);
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

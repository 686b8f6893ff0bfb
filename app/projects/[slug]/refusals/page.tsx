import { ListQueryError } from "@/components/ListQueryError";
import { projectHref } from "@/components/project-href";
import { RefusalFeed } from "@/components/RefusalFeed";
import { RefusalFilters } from "@/components/RefusalFilters";
import { requireMember } from "@/lib/auth/project-access";
import { AppError } from "@/lib/core/errors";
import { type RawSearchParams, refusalFeed } from "@/lib/server/dashboard";

export const metadata = { title: "Refusals" };

export default async function RefusalsPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<RawSearchParams>;
}) {
  const { project } = await requireMember((await params).slug);
  const path = projectHref(project.slug, "/refusals");
  const raw = await searchParams;
  let initial: Awaited<ReturnType<typeof refusalFeed>>;
  try {
    initial = await refusalFeed(project.id, raw);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "VALIDATION_FAILED") throw error;
    return <ListQueryError title="Refusals" error={error} resetHref={path} resetLabel="Show every refusal" />;
  }
  // What the live feed polls with: the URL's own parameters, first value of each.
  const filter = Object.fromEntries(
    Object.entries(raw).flatMap(([key, value]) => {
      const first = [value ?? []].flat()[0];
      return first ? [[key, first]] : [];
    }),
  );
  return (
    <>
      <h1>Refusals</h1>
      <p className="subtitle">
        Every time the gate kept a span verbatim because a summary would have lost its evidence, and every compaction a runtime
        did without asking it.
      </p>
      <RefusalFilters action={path} query={initial.query} />
      <RefusalFeed project={project.slug} filter={filter} initial={initial} />
    </>
  );
}

import { RefusalFeed } from "@/components/RefusalFeed";
import { AppError } from "@/lib/core/errors";
import { EVIDENTIAL_CLASSES, PROVENANCE_STATUSES } from "@/lib/evidence/types";
import { humanize } from "@/components/format";
import { requireMember } from "@/lib/auth/project-access";
import { FEED_SHOWS, refusalFeed } from "@/lib/server/dashboard";

export const metadata = { title: "Refusals" };

const SHOW_LABEL = { both: "Both", refusals: "Refusals", compactions: "Compactions without asking" } as const;

export default async function RefusalsPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const { project } = await requireMember((await params).slug);
  const query = await searchParams;
  const filter = {
    session: query.session,
    cellClass: query.cellClass,
    cellProvenance: query.cellProvenance,
    days: query.days,
    show: query.show,
  };
  let initial: Awaited<ReturnType<typeof refusalFeed>>;
  try {
    initial = await refusalFeed(project.id, filter);
  } catch (error) {
    if (error instanceof AppError && error.code === "VALIDATION_FAILED") {
      return (
        <div className="panel error-text">
          That filter is not valid: {error.fields?.map((f) => `${f.path}: ${f.message}`).join("; ")}
        </div>
      );
    }
    throw error;
  }
  return (
    <>
      <h1>Refusals</h1>
      <p className="subtitle">
        Every time the gate kept a span verbatim because a summary would have lost its evidence, and every compaction a runtime
        did without asking it.
      </p>
      <form method="get" className="panel" style={{ display: "flex", gap: 12, alignItems: "end", marginBottom: 16 }}>
        <label>
          Show
          <br />
          <select name="show" defaultValue={query.show ?? "both"}>
            {FEED_SHOWS.map((s) => (
              <option key={s} value={s}>
                {SHOW_LABEL[s]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Class
          <br />
          <select name="cellClass" defaultValue={query.cellClass ?? ""}>
            <option value="">Any</option>
            {EVIDENTIAL_CLASSES.filter((c) => c !== "NARRATIVE").map((c) => (
              <option key={c} value={c}>
                {humanize(c)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Provenance
          <br />
          <select name="cellProvenance" defaultValue={query.cellProvenance ?? ""}>
            <option value="">Any</option>
            {PROVENANCE_STATUSES.filter((p) => p !== "DURABLE").map((p) => (
              <option key={p} value={p}>
                {humanize(p)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Window
          <br />
          <select name="days" defaultValue={query.days ?? "30"}>
            {["1", "7", "30", "90", "365"].map((d) => (
              <option key={d} value={d}>
                {d} days
              </option>
            ))}
          </select>
        </label>
        {query.session ? <input type="hidden" name="session" value={query.session} /> : null}
        <button type="submit" className="button">
          Filter
        </button>
      </form>
      <RefusalFeed project={project.slug} filter={filter} initial={initial} />
    </>
  );
}

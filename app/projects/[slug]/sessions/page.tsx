import Link from "next/link";
import { CompactionBadge } from "@/components/CompactionBadge";
import { FilterDisclosure } from "@/components/FilterDisclosure";
import { activeFilterCount, SESSION_FILTER_DEFAULTS, SESSION_FILTER_GROUPS } from "@/components/filter-count";
import { ListSummary } from "@/components/ListSummary";
import { Pager, pageWindow } from "@/components/Pager";
import { RangeSelect } from "@/components/RangeSelect";
import { formatDayTime, formatTime } from "@/components/format";
import { AppError } from "@/lib/core/errors";
import { requireMember } from "@/lib/auth/project-access";
import { projectHref } from "@/components/project-href";
import { RANGE_KEYS, withViewRange } from "@/components/view-range";
import { listSessionPage, PAGE_SIZE, SESSION_SORTS, SESSION_STATES, type SessionListQuery } from "@/lib/server/dashboard";

export const metadata = { title: "Sessions" };

const SORT_LABEL = { activity: "Last activity", refusals: "Refusals", "at-risk": "Spans at risk" } as const;
const STATE_LABEL = {
  any: "Any",
  refused: "With refusals",
  "at-risk": "With spans at risk",
  lost: "With evidence lost or no pointer",
  incomplete: "Incomplete (records skipped)",
  unasked: "Compacted without asking",
} as const;

function href(slug: string, query: SessionListQuery, change: Partial<SessionListQuery>): string {
  const next = { ...query, ...change };
  const params = new URLSearchParams();
  if (next.q) params.set("q", next.q);
  if (next.runtime) params.set("runtime", next.runtime);
  if (next.state !== "any") params.set("state", next.state);
  if (next.sort !== "activity") params.set("sort", next.sort);
  for (const key of ["range", "from", "to"] as const) if (next[key]) params.set(key, next[key]);
  if (next.page > 1) params.set("page", String(next.page));
  const text = params.toString();
  return projectHref(slug, text ? `/sessions?${text}` : "/sessions");
}

/**
 * The list's range as search params: a session opened from the list keeps it, so the navigation
 * from the session leads back to the same range.
 */
function rangeOf(query: SessionListQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of RANGE_KEYS) if (query[key]) params.set(key, query[key]);
  return params;
}

export default async function SessionsPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const { project } = await requireMember((await params).slug);
  let data: Awaited<ReturnType<typeof listSessionPage>>;
  try {
    data = await listSessionPage(project.id, await searchParams);
  } catch (error) {
    if (error instanceof AppError && error.code === "VALIDATION_FAILED")
      return <div className="panel error-text">That filter is not valid.</div>;
    throw error;
  }
  const { rows, total, query, runtimes } = data;
  const window = pageWindow(total, query.page, PAGE_SIZE);
  // Times of this year need no year.
  const year = new Date().getUTCFullYear();
  return (
    <>
      <h1>Sessions</h1>
      <p className="subtitle">Agent runs whose transcripts Custodian holds in {project.name}.</p>
      <FilterDisclosure active={activeFilterCount(query, SESSION_FILTER_GROUPS, SESSION_FILTER_DEFAULTS)}>
        <form
          method="get"
          className="panel"
          style={{ display: "flex", gap: 12, alignItems: "end", flexWrap: "wrap" }}
          aria-label="Filter sessions"
        >
          <label>
            Search
            <br />
            <input name="q" defaultValue={query.q ?? ""} placeholder="title or external id" />
          </label>
          <label>
            Runtime
            <br />
            <select name="runtime" defaultValue={query.runtime ?? ""}>
              <option value="">Any</option>
              {runtimes.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
          <label>
            State
            <br />
            <select name="state" defaultValue={query.state}>
              {SESSION_STATES.map((s) => (
                <option key={s} value={s}>
                  {STATE_LABEL[s]}
                </option>
              ))}
            </select>
          </label>
          <label>
            Sort by
            <br />
            <select name="sort" defaultValue={query.sort}>
              {SESSION_SORTS.map((s) => (
                <option key={s} value={s}>
                  {SORT_LABEL[s]}
                </option>
              ))}
            </select>
          </label>
          <RangeSelect value={query.range} label="Last activity within" />
          <button type="submit" className="button">
            Apply
          </button>
        </form>
      </FilterDisclosure>
      <ListSummary
        window={window}
        hrefFor={(n) => href(project.slug, query, { page: n })}
        noun={["session", "sessions"]}
        testId="list-total"
      />
      {rows.length === 0 ? (
        <div className="panel empty-state">No sessions match. Stream spans from a runtime or import a transcript.</div>
      ) : (
        <table className="data sessions stacked" aria-label="Sessions">
          <thead>
            <tr>
              {/* The counts a person scans for first sit beside the name: on a phone, where each row
                  is a card, they are the line under it. */}
              <th>Session</th>
              <th className="num">
                <Link href={href(project.slug, query, { sort: "refusals", page: 1 })}>Refusals</Link>
              </th>
              <th className="num">
                <Link href={href(project.slug, query, { sort: "at-risk", page: 1 })}>At risk</Link>
              </th>
              <th className="num" title="Evidence-bearing spans lost or with no pointer: the session grid's red cells">
                Lost or no pointer
              </th>
              <th className="num">Compacted without asking</th>
              <th className="num">Spans</th>
              <th>Runtime</th>
              <th>
                <Link href={href(project.slug, query, { sort: "activity", page: 1 })}>Last activity (UTC)</Link>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((s) => (
              <tr key={s.id}>
                <td className="name" data-label="Session">
                  <Link href={withViewRange(projectHref(project.slug, `/sessions/${s.id}`), rangeOf(query))}>
                    {s.title ?? s.externalId}
                  </Link>
                  {s.skippedCount > 0 ? (
                    <>
                      {" "}
                      <span
                        className="badge risk"
                        data-testid="incomplete"
                        title={`Its import skipped ${s.skippedCount} record${s.skippedCount === 1 ? "" : "s"}: no question answers NO over it`}
                      >
                        incomplete
                      </span>
                    </>
                  ) : null}
                  <div className="mono" style={{ color: "var(--muted)" }}>
                    {s.externalId}
                  </div>
                </td>
                <td className="num" data-label="Refusals">
                  {s.refusalCount > 0 ? <span className="badge lost">{s.refusalCount}</span> : 0}
                </td>
                <td className="num" data-testid="at-risk" data-label="At risk">
                  {s.atRiskCount > 0 ? <span className="badge risk">{s.atRiskCount}</span> : 0}
                </td>
                <td className="num" data-testid="lost" data-label="Lost or no pointer">
                  {s.lostCount > 0 ? <span className="badge lost">{s.lostCount}</span> : 0}
                </td>
                <td className="num" data-label="Compacted without asking">
                  <CompactionBadge count={s.unaskedCompactionCount} />
                </td>
                <td className="num" data-label="Spans">
                  {s.spanCount}
                </td>
                <td className="one-line short" data-label="Runtime">
                  {s.runtime}
                </td>
                <td className="when short" data-label="Last activity (UTC)">
                  <time dateTime={s.lastActivityAt.toISOString()} title={formatTime(s.lastActivityAt)}>
                    {formatDayTime(s.lastActivityAt, year)}
                  </time>
                  <div className="muted-note">
                    received{" "}
                    <time dateTime={s.receivedAt.toISOString()} title={formatTime(s.receivedAt)}>
                      {formatDayTime(s.receivedAt, year)}
                    </time>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager label="Pages" noun="Sessions" window={window} hrefFor={(n) => href(project.slug, query, { page: n })} />
    </>
  );
}

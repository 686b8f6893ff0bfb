import Link from "next/link";
import { projectHref } from "@/components/project-href";
import { SearchHits } from "@/components/SearchHits";
import { humanize, provenanceWords } from "@/components/format";
import { requireMember } from "@/lib/auth/project-access";
import { AppError } from "@/lib/core/errors";
import { EVIDENTIAL_CLASSES, PROVENANCE_STATUSES, SPAN_KINDS } from "@/lib/evidence/types";
import { parseSearchParams, type SearchInput, type SearchPage, searchSpans } from "@/lib/server/search";

export const metadata = { title: "Search" };

type Raw = Record<string, string | string[] | undefined>;

function totalText(page: SearchPage): string {
  const n = page.total.count.toLocaleString("en");
  if (page.total.relation === "gt") return `More than ${n} matching spans, newest first`;
  if (page.total.relation === "gte") return `At least ${n} matching spans so far, newest first`;
  return `${n} matching span${page.total.count === 1 ? "" : "s"}${page.order === "relevance" && page.total.count > 1 ? ", best first" : ""}`;
}

function Select({ label, name, values, value }: { label: string; name: string; values: readonly string[]; value?: string }) {
  return (
    <label>
      {label}
      <br />
      <select name={name} defaultValue={value ?? ""}>
        <option value="">Any</option>
        {values.map((v) => (
          <option key={v} value={v}>
            {name === "provenance" ? provenanceWords(v) : humanize(v)}
          </option>
        ))}
      </select>
    </label>
  );
}

export default async function SearchPageView({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Raw>;
}) {
  const { project } = await requireMember((await params).slug);
  const raw = await searchParams;
  const asked = [raw.q, raw.regex].flat().some((v) => typeof v === "string" && v.trim() !== "");
  let input: SearchInput | undefined;
  let page: SearchPage | undefined;
  let problem: string | undefined;
  if (asked) {
    try {
      input = parseSearchParams(raw);
      page = await searchSpans(project.id, input);
    } catch (error) {
      if (!(error instanceof AppError && error.code === "VALIDATION_FAILED")) throw error;
      problem = error.fields?.map((f) => f.message).join("; ") ?? error.message;
    }
  }
  const first = (key: string) => [raw[key]].flat()[0];
  const base = projectHref(project.slug, "/search");
  const next = (cursor: string) => {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(raw))
      for (const v of [value ?? []].flat()) if (key !== "cursor" && v !== "") query.append(key, v);
    query.set("cursor", cursor);
    return `${base}?${query}`;
  };
  return (
    <>
      <h1>Search</h1>
      <p className="subtitle">
        Every span of {project.name}: messages, tool calls and their input, results, summaries, as their originals hold them;
        where an original expired, what is kept of its span (tool name, evidence atoms), marked. A plain term is found anywhere (
        <span className="mono">8443</span> finds <span className="mono">localhost:8443/health</span>),{" "}
        <span className="mono">word*</span> a prefix, <span className="mono">&quot;two words&quot;</span> a phrase.
      </p>
      <form
        method="get"
        action={base}
        className="panel"
        aria-label="Search and filters"
        style={{ display: "flex", gap: 12, flexWrap: "wrap", alignItems: "end", marginBottom: 16 }}
      >
        <label>
          Terms
          <br />
          <input name="q" type="search" defaultValue={first("q") ?? ""} maxLength={500} />
        </label>
        <label>
          RE2 pattern
          <br />
          <input name="regex" defaultValue={first("regex") ?? ""} maxLength={500} className="mono" />
        </label>
        <Select label="Kind" name="kind" values={SPAN_KINDS} value={first("kind")} />
        <Select label="Class" name="class" values={EVIDENTIAL_CLASSES} value={first("class")} />
        <Select label="Provenance" name="provenance" values={PROVENANCE_STATUSES} value={first("provenance")} />
        {first("session") ? <input type="hidden" name="session" value={first("session")} /> : null}
        <button type="submit" className="button">
          Search
        </button>
      </form>
      {first("session") ? (
        <p className="subtitle">
          Within one session. <Link href={`${base}?${new URLSearchParams({ q: first("q") ?? "" })}`}>Search every session</Link>
        </p>
      ) : null}
      {problem ? (
        <div className="panel error-text" role="alert">
          That search is not valid: {problem}
        </div>
      ) : null}
      {page && input ? (
        <section aria-label="Results">
          <p data-testid="search-total">{totalText(page)}</p>
          {page.hits.length === 0 ? (
            <div className="panel empty-state">
              No span matches. Search reads originals while they are held, and only the tool names and evidence atoms of expired
              ones.
            </div>
          ) : (
            <SearchHits
              hits={page.hits}
              spanHref={(hit) =>
                projectHref(
                  project.slug,
                  hit.byteStart !== null
                    ? `/spans/${hit.spanId}?from=${hit.byteStart}&to=${hit.byteEnd}#cited`
                    : `/spans/${hit.spanId}`,
                )
              }
            />
          )}
          {page.nextCursor ? (
            <p>
              <Link href={next(page.nextCursor)}>Next page</Link>
            </p>
          ) : null}
        </section>
      ) : null}
    </>
  );
}

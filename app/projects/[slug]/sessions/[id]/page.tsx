import Link from "next/link";
import { orNotFound } from "../../or-not-found";
import { projectHref } from "@/components/project-href";
import { RANGE_KEYS, withViewRange } from "@/components/view-range";
import { ProvenanceGrid } from "@/components/ProvenanceGrid";
import { SpanTimeline } from "@/components/SpanTimeline";
import { CellBulkActions } from "@/components/CellBulkActions";
import { Pager } from "@/components/Pager";
import { ListSummary } from "@/components/ListSummary";
import { can } from "@/lib/core/permissions";
import { requireMember } from "@/lib/auth/project-access";
import { cellRetentionAction } from "../../retention/actions";
import { BULK_LIMIT } from "@/lib/server/provenance";
import { RunGateForm } from "@/components/RunGateForm";
import { SkippedRecords } from "@/components/SkippedRecords";
import { TranscriptFilters } from "@/components/TranscriptFilters";
import { ListQueryError } from "@/components/ListQueryError";
import { humanize, provenanceWords } from "@/components/format";
import { OUTCOME_LABELS } from "@/lib/evidence/outcomes";
import { runGateAction } from "./actions";
import {
  agentOf,
  getSessionOverview,
  listQueryParams,
  parseSpanListQuery,
  SPAN_LIST_DEFAULTS,
  type SpanListQuery,
  withQuery,
} from "@/lib/server/dashboard";
import { AppError } from "@/lib/core/errors";

export const metadata = { title: "Session" };

export default async function SessionPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string; id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { slug, id } = await params;
  const { project, role } = await requireMember(slug);
  const path = projectHref(project.slug, `/sessions/${id}`);
  const raw = await searchParams;
  // The project views' range the session was opened with (the sessions list passes it on): its
  // grid's cells keep it, so the navigation from a cell's spans still leads back to that range.
  const range = new URLSearchParams();
  for (const key of RANGE_KEYS) {
    const value = [raw[key] ?? []].flat()[0];
    if (value) range.set(key, value);
  }
  let query: SpanListQuery;
  try {
    query = parseSpanListQuery(raw);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "VALIDATION_FAILED") throw error;
    return <ListQueryError title="Session" error={error} resetHref={path} resetLabel="Show the whole transcript" />;
  }
  const agentId = agentOf(query.agent);
  const outcomes = query.outcome ?? [];
  const overview = await orNotFound(
    getSessionOverview(project.id, id, {
      class: query.class,
      provenance: query.provenance,
      kind: query.kind,
      transcriptState: query.state,
      agentId,
      outcomes,
      descending: query.sort === "seq-desc",
      page: query.page,
    }),
  );
  const { session, spans, grid, total, page, pages, pageSize, cellHeld, maxSeq, gateRange, agents, skipped } = overview;
  const cls = query.class;
  const provenance = query.provenance;
  const listHref = (n: number, narrowed: boolean) =>
    withQuery(
      path,
      listQueryParams(query, SPAN_LIST_DEFAULTS, { page: n, ...(narrowed ? {} : { agent: undefined, outcome: undefined }) }),
      "#spans",
    );
  const pageHref = (n: number) => listHref(n, true);
  const agentType = agents.find((a) => a.agentId === agentId)?.agentType;
  const agentName =
    agentId === undefined ? null : agentId === null ? "main agent" : `subagent ${agentId}${agentType ? ` (${agentType})` : ""}`;
  const narrowing = [
    cls || provenance
      ? `${cls ? humanize(cls) : "any class"}, ${provenance ? provenanceWords(provenance) : "any provenance"}`
      : null,
    query.kind ? `kind ${humanize(query.kind)}` : null,
    query.state ? `transcript ${humanize(query.state)}` : null,
    agentName,
    outcomes.length > 0 ? `calls ${outcomes.map((o) => OUTCOME_LABELS[o]).join(" or ")}` : null,
  ].filter((x): x is string => x !== null);

  return (
    <>
      <h1>{session.title ?? session.externalId}</h1>
      <p className="subtitle">
        {session.runtime} · project {session.project.name} · <span className="mono">{session.externalId}</span>
        {session.cwd ? (
          <>
            {" "}
            · <span className="mono">{session.cwd}</span>
          </>
        ) : null}
      </p>
      <SkippedRecords records={skipped.records} total={skipped.total} scope="this session" />
      <h2>Evidence grid</h2>
      <ProvenanceGrid
        counts={grid}
        hrefFor={(c, p) =>
          `${withViewRange(projectHref(project.slug, `/sessions/${session.id}?class=${c}&provenance=${p}`), range)}#spans`
        }
        current={{ class: cls, provenance }}
      />
      {grid.NARRATIVE.NONE + grid.STRUCTURED.NONE + grid.SIDE_EFFECTING.NONE > 0 ? (
        <p className="subtitle" data-testid="no-pointer-note" style={{ margin: "8px 0 0" }}>
          No pointer: a summary replaced these spans without pointing to their originals (a compaction done without asking the
          gate), so no answer can rest on them, and a pin cannot bring the pointer back.
        </p>
      ) : null}
      <h2 id="spans">{narrowing.length > 0 ? `Spans: ${narrowing.join("; ")}` : "Transcript"}</h2>
      <TranscriptFilters
        action={projectHref(project.slug, `/sessions/${session.id}`)}
        agents={agents}
        agentId={agentId}
        outcomes={outcomes}
        query={query}
        clearHref={listHref(1, false)}
        clearAllHref={`${path}#spans`}
      />
      <form
        method="get"
        action={projectHref(project.slug, "/search")}
        aria-label="Find in this transcript"
        style={{ display: "flex", gap: 8, alignItems: "end", margin: "0 0 12px" }}
      >
        <input type="hidden" name="session" value={session.id} />
        <label>
          Find in this transcript
          <br />
          <input name="q" type="search" maxLength={500} placeholder="text, word*, &quot;a phrase&quot;" />
        </label>
        <button type="submit" className="button">
          Find
        </button>
      </form>
      {cls && provenance && can(role, "originals:pin") ? (
        <CellBulkActions
          sessionId={session.id}
          cell={{ class: cls, provenance }}
          held={cellHeld}
          limit={BULK_LIMIT}
          label={`${humanize(cls)} × ${provenanceWords(provenance)}`}
          action={cellRetentionAction.bind(null, project.slug)}
        />
      ) : null}
      <ListSummary
        window={{ page, pages, start: (page - 1) * pageSize, end: (page - 1) * pageSize + spans.length, total }}
        hrefFor={pageHref}
        noun={["span", "spans"]}
        testId="list-total"
      />
      <SpanTimeline
        spans={spans}
        project={project.slug}
        empty={
          narrowing.length > 0 ? (
            <>
              No span of this session matches: {narrowing.join("; ")}. <Link href={`${path}#spans`}>Show every span</Link>.
            </>
          ) : (
            "This session has no spans yet."
          )
        }
      />
      <Pager
        label="Transcript pages"
        noun="Spans"
        window={{
          page,
          pages,
          start: (page - 1) * pageSize,
          end: (page - 1) * pageSize + spans.length,
          total,
        }}
        hrefFor={pageHref}
      />
      {can(role, "gate:run") ? (
        <>
          <h2>Run the gate</h2>
          <RunGateForm sessionId={session.id} maxSeq={maxSeq} range={gateRange} action={runGateAction.bind(null, project.slug)} />
        </>
      ) : null}
    </>
  );
}

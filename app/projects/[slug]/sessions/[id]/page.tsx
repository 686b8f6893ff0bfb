import { orNotFound } from "../../or-not-found";
import { projectHref } from "@/components/project-href";
import { ProvenanceGrid } from "@/components/ProvenanceGrid";
import { SpanTimeline } from "@/components/SpanTimeline";
import { CellBulkActions } from "@/components/CellBulkActions";
import { Pager } from "@/components/Pager";
import { can } from "@/lib/core/permissions";
import { requireMember } from "@/lib/auth/project-access";
import { bulkRetentionAction } from "../../retention/actions";
import { RunGateForm } from "@/components/RunGateForm";
import { SkippedRecords } from "@/components/SkippedRecords";
import { agentFromParam, agentParam, outcomesFromParam, TranscriptFilters } from "@/components/TranscriptFilters";
import { OUTCOME_LABELS } from "@/lib/evidence/outcomes";
import { runGateAction } from "./actions";
import { getSessionOverview } from "@/lib/server/dashboard";
import { EVIDENTIAL_CLASSES, PROVENANCE_STATUSES, type EvidentialClass, type ProvenanceStatus } from "@/lib/evidence/types";

export const metadata = { title: "Session" };

function pick<T extends string>(value: string | string[] | undefined, allowed: readonly T[]): T | undefined {
  return typeof value === "string" && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
}

export default async function SessionPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string; id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { slug, id } = await params;
  const { project, role } = await requireMember(slug);
  const query = await searchParams;
  const cls = pick<EvidentialClass>(query.class, EVIDENTIAL_CLASSES);
  const provenance = pick<ProvenanceStatus>(query.provenance, PROVENANCE_STATUSES);
  const agentId = agentFromParam(query.agent);
  const outcomes = outcomesFromParam(query.outcome);
  const requestedPage = typeof query.page === "string" ? Number.parseInt(query.page, 10) : 1;
  const overview = await orNotFound(
    getSessionOverview(project.id, id, {
      class: cls,
      provenance,
      agentId,
      outcomes,
      page: Number.isFinite(requestedPage) ? requestedPage : 1,
    }),
  );
  const { session, spans, grid, total, totalIsLowerBound, page, pages, pageSize, cellSpanIds, maxSeq, agents, skipped } =
    overview;
  const listHref = (n: number, narrowed: boolean) => {
    const params = new URLSearchParams();
    if (cls) params.set("class", cls);
    if (provenance) params.set("provenance", provenance);
    if (narrowed && agentId !== undefined) params.set("agent", agentParam(agentId));
    if (narrowed) for (const o of outcomes) params.append("outcome", o);
    if (n > 1) params.set("page", String(n));
    const text = params.toString();
    return projectHref(project.slug, `/sessions/${session.id}${text ? `?${text}` : ""}#spans`);
  };
  const pageHref = (n: number) => listHref(n, true);
  const agentType = agents.find((a) => a.agentId === agentId)?.agentType;
  const agentName =
    agentId === undefined ? null : agentId === null ? "main agent" : `subagent ${agentId}${agentType ? ` (${agentType})` : ""}`;
  const narrowing = [
    cls || provenance ? `${cls ?? "any class"}, ${provenance ?? "any provenance"}` : null,
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
        hrefFor={(c, p) => projectHref(project.slug, `/sessions/${session.id}?class=${c}&provenance=${p}#spans`)}
      />
      <h2 id="spans">{narrowing.length > 0 ? `Spans: ${narrowing.join("; ")}` : "Transcript"}</h2>
      <TranscriptFilters
        action={projectHref(project.slug, `/sessions/${session.id}`)}
        agents={agents}
        agentId={agentId}
        outcomes={outcomes}
        keep={{ class: cls, provenance }}
        clearHref={listHref(1, false)}
      />
      {cls && provenance && can(role, "originals:pin") ? (
        <CellBulkActions
          sessionId={session.id}
          spanIds={cellSpanIds}
          label={`${cls} × ${provenance}`}
          action={bulkRetentionAction.bind(null, project.slug)}
        />
      ) : null}
      <SpanTimeline spans={spans} />
      <Pager
        label="Transcript pages"
        noun="Spans"
        window={{
          page,
          pages,
          start: (page - 1) * pageSize,
          end: (page - 1) * pageSize + spans.length,
          total,
          more: totalIsLowerBound,
        }}
        hrefFor={pageHref}
      />
      {can(role, "gate:run") ? (
        <>
          <h2>Run the gate</h2>
          <RunGateForm sessionId={session.id} maxSeq={maxSeq} action={runGateAction.bind(null, project.slug)} />
        </>
      ) : null}
    </>
  );
}

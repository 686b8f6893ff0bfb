import { orNotFound } from "../../or-not-found";
import { ProvenanceGrid } from "@/components/ProvenanceGrid";
import { SpanTimeline } from "@/components/SpanTimeline";
import { CellBulkActions } from "@/components/CellBulkActions";
import { Pager } from "@/components/Pager";
import { can } from "@/lib/core/permissions";
import { requireUser } from "@/lib/auth/session";
import { bulkRetentionAction } from "../../retention/actions";
import { RunGateForm } from "@/components/RunGateForm";
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
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requireUser();
  const { id } = await params;
  const query = await searchParams;
  const cls = pick<EvidentialClass>(query.class, EVIDENTIAL_CLASSES);
  const provenance = pick<ProvenanceStatus>(query.provenance, PROVENANCE_STATUSES);
  const requestedPage = typeof query.page === "string" ? Number.parseInt(query.page, 10) : 1;
  const overview = await orNotFound(
    getSessionOverview(id, { class: cls, provenance, page: Number.isFinite(requestedPage) ? requestedPage : 1 }),
  );
  const { session, spans, grid, total, page, pages, pageSize, cellSpanIds, maxSeq } = overview;
  const pageHref = (n: number) => {
    const params = new URLSearchParams();
    if (cls) params.set("class", cls);
    if (provenance) params.set("provenance", provenance);
    if (n > 1) params.set("page", String(n));
    const text = params.toString();
    return `/sessions/${session.id}${text ? `?${text}` : ""}#spans`;
  };

  return (
    <>
      <h1>{session.title ?? session.externalId}</h1>
      <p className="subtitle">
        {session.runtime} · project {session.project.slug} · <span className="mono">{session.externalId}</span>
        {session.cwd ? (
          <>
            {" "}
            · <span className="mono">{session.cwd}</span>
          </>
        ) : null}
      </p>
      <h2>Evidence grid</h2>
      <ProvenanceGrid counts={grid} hrefFor={(c, p) => `/sessions/${session.id}?class=${c}&provenance=${p}#spans`} />
      <h2 id="spans">{cls || provenance ? `Spans: ${cls ?? "any class"}, ${provenance ?? "any provenance"}` : "Transcript"}</h2>
      {cls && provenance && can(user.role, "originals:pin") ? (
        <CellBulkActions
          sessionId={session.id}
          spanIds={cellSpanIds}
          label={`${cls} × ${provenance}`}
          action={bulkRetentionAction}
        />
      ) : null}
      <SpanTimeline spans={spans} />
      <Pager
        label="Transcript pages"
        noun="Spans"
        window={{ page, pages, start: (page - 1) * pageSize, end: Math.min(total, page * pageSize), total }}
        hrefFor={pageHref}
      />
      {can(user.role, "gate:run") ? (
        <>
          <h2>Run the gate</h2>
          <RunGateForm sessionId={session.id} maxSeq={maxSeq} action={runGateAction} />
        </>
      ) : null}
    </>
  );
}

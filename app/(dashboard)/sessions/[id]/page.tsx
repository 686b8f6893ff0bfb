import { orNotFound } from "../../or-not-found";
import { ProvenanceGrid } from "@/components/ProvenanceGrid";
import { SpanTimeline } from "@/components/SpanTimeline";
import { CellBulkActions } from "@/components/CellBulkActions";
import { can } from "@/lib/api/permissions";
import { requireUser } from "@/lib/auth/session";
import { bulkRetentionAction } from "../../retention/actions";
import { RunGateForm } from "@/components/RunGateForm";
import { runGateAction } from "./actions";
import { getSessionOverview } from "@/lib/server/sessions";
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
  const { id } = await params;
  const query = await searchParams;
  const user = await requireUser();
  const overview = await orNotFound(getSessionOverview(id));
  const { session, spans, grid } = overview;
  const cls = pick<EvidentialClass>(query.class, EVIDENTIAL_CLASSES);
  const provenance = pick<ProvenanceStatus>(query.provenance, PROVENANCE_STATUSES);
  const shown = spans.filter((s) => (!cls || s.class === cls) && (!provenance || s.provenance === provenance));

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
      <h2 id="spans">
        {cls || provenance ? `Spans: ${cls ?? "any class"}, ${provenance ?? "any provenance"}` : "Transcript"}
      </h2>
      {cls && provenance && can(user.role, "originals:pin") ? (
        <CellBulkActions
          spanIds={shown.filter((s) => s.provenance !== "LOST" && s.provenance !== "NONE").map((s) => s.id).slice(0, 1000)}
          label={`${cls} × ${provenance}`}
          action={bulkRetentionAction}
        />
      ) : null}
      <SpanTimeline spans={shown} />
      {can(user.role, "gate:run") ? (
        <>
          <h2>Run the gate</h2>
          <RunGateForm sessionId={session.id} maxSeq={Math.max(0, ...spans.map((s) => s.seq ?? 0))} action={runGateAction} />
        </>
      ) : null}
    </>
  );
}

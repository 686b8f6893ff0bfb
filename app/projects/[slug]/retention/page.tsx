import Link from "next/link";
import { AtRiskTable } from "@/components/AtRiskTable";
import { ExpiryChart } from "@/components/charts/ExpiryChart";
import { prepareExpirySeries } from "@/components/charts/expiry-series";
import { RetentionWhatIf } from "@/components/RetentionWhatIf";
import { StorageFigures } from "@/components/StorageFigures";
import { projectHref } from "@/components/project-href";
import { can } from "@/lib/core/permissions";
import { requireMember } from "@/lib/auth/project-access";
import type { RawSearchParams } from "@/lib/server/dashboard";
import { currentPolicy, expiriesByWeek, listAtRiskOriginals, storageFigures } from "@/lib/server/retention";
import { bulkRetentionAction, savePolicyAction, simulateAction } from "./actions";
import { atRiskRange } from "./at-risk-range";
import { proposalFromSearch } from "./proposal";

export const metadata = { title: "Retention" };

const WEEKS = 12;
const AT_RISK_LIMIT = 200;

export default async function RetentionPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<RawSearchParams>;
}) {
  const { project, role } = await requireMember((await params).slug);
  const now = new Date();
  const search = await searchParams;
  const scoped = atRiskRange(search, now);
  const [atRisk, expiries, current, storage, proposal] = await Promise.all([
    listAtRiskOriginals(project.id, AT_RISK_LIMIT, now, scoped?.window),
    expiriesByWeek(project.id, now, WEEKS),
    currentPolicy(project.id),
    storageFigures(project.id, now),
    proposalFromSearch(project.id, search),
  ]);
  return (
    <>
      <h1>Retention</h1>
      <p className="subtitle">
        What originals cost, what a policy change would delete and break, and what expires before its horizon.
      </p>
      <StorageFigures figures={storage} project={project.slug} />
      <RetentionWhatIf
        historyHref={projectHref(project.slug, "/retention/history")}
        policy={current.policy}
        version={current.version}
        proposal={proposal}
        canSave={can(role, "policy:write")}
        simulate={simulateAction.bind(null, project.slug)}
        save={savePolicyAction.bind(null, project.slug)}
      />
      <section className="panel" aria-label="Expiries" style={{ marginBottom: 16 }}>
        <h2 style={{ marginTop: 0 }}>Originals expiring in the next {WEEKS} weeks</h2>
        <ExpiryChart series={prepareExpirySeries(expiries, now, WEEKS)} />
      </section>
      <h2 id="at-risk">Spans at risk</h2>
      <p className="subtitle">
        {scoped ? (
          <>
            In the sessions active {scoped.words}, as the overview's &ldquo;Spans at risk ahead&rdquo; counts them.{" "}
            <Link href={projectHref(project.slug, "/retention#at-risk")}>Show every session&rsquo;s</Link>.
          </>
        ) : (
          "Held originals of structured and side-effecting spans that expire before their evidence horizon, soonest first."
        )}
        {atRisk.length === AT_RISK_LIMIT ? ` The first ${AT_RISK_LIMIT} are shown.` : null}
      </p>
      {atRisk.length === 0 ? (
        <div className="panel empty-state">
          {scoped
            ? `No original of the sessions active ${scoped.words} expires before its horizon.`
            : "No original expires before its horizon: every side-effecting and structured span is kept long enough to answer for it."}
        </div>
      ) : (
        <AtRiskTable
          project={project.slug}
          rows={atRisk.map((o) => ({ ...o, expiresAt: o.expiresAt.toISOString(), horizonAt: o.horizonAt.toISOString() }))}
          canAct={can(role, "originals:pin")}
          action={bulkRetentionAction.bind(null, project.slug)}
        />
      )}
    </>
  );
}

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
import { proposalFromSearch } from "./proposal";

export const metadata = { title: "Retention" };

const WEEKS = 12;

export default async function RetentionPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<RawSearchParams>;
}) {
  const { project, role } = await requireMember((await params).slug);
  const now = new Date();
  const [atRisk, expiries, current, storage, proposal] = await Promise.all([
    listAtRiskOriginals(project.id),
    expiriesByWeek(project.id, now, WEEKS),
    currentPolicy(project.id),
    storageFigures(project.id, now),
    proposalFromSearch(project.id, await searchParams),
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
      {atRisk.length === 0 ? (
        <div className="panel empty-state">
          No original expires before its horizon: every side-effecting and structured span is kept long enough to answer for it.
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

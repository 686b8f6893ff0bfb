import Link from "next/link";
import { AtRiskTable } from "@/components/AtRiskTable";
import { ExpiryChart } from "@/components/charts/ExpiryChart";
import { prepareExpirySeries } from "@/components/charts/expiry-series";
import { RetentionWhatIf } from "@/components/RetentionWhatIf";
import { StorageFigures } from "@/components/StorageFigures";
import { can } from "@/lib/core/permissions";
import { requireUser } from "@/lib/auth/session";
import { currentPolicy, expiriesByWeek, listAtRiskOriginals, storageFigures } from "@/lib/server/retention";
import { bulkRetentionAction, savePolicyAction, simulateAction } from "./actions";
import { pickProject } from "./project";

export const metadata = { title: "Retention" };

const WEEKS = 12;

export default async function RetentionPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requireUser();
  const now = new Date();
  const { project, projects } = await pickProject(searchParams);
  const [atRisk, expiries, current, storage] = await Promise.all([
    listAtRiskOriginals(),
    expiriesByWeek(now, WEEKS),
    project ? currentPolicy(project.id) : null,
    project ? storageFigures(project.id, now) : null,
  ]);
  return (
    <>
      <h1>Retention</h1>
      <p className="subtitle">
        What originals cost, what a policy change would delete and break, and what expires before its horizon.
      </p>
      {projects.length > 1 ? (
        <nav aria-label="Projects" style={{ marginBottom: 12 }}>
          {projects.map((p) => (
            <Link
              key={p.id}
              href={`/retention?project=${p.id}`}
              aria-current={p.id === project?.id ? "page" : undefined}
              style={{ marginRight: 12, fontWeight: p.id === project?.id ? 700 : 400 }}
            >
              {p.slug}
            </Link>
          ))}
        </nav>
      ) : null}
      {project && current && storage ? (
        <>
          <StorageFigures figures={storage} />
          <RetentionWhatIf
            projectId={project.id}
            policy={current.policy}
            version={current.version}
            canSave={can(user.role, "policy:write")}
            simulate={simulateAction}
            save={savePolicyAction}
          />
        </>
      ) : null}
      <section className="panel" aria-label="Expiries" style={{ marginBottom: 16 }}>
        <h2 style={{ marginTop: 0 }}>Originals expiring in the next {WEEKS} weeks</h2>
        <ExpiryChart series={prepareExpirySeries(expiries, now, WEEKS)} />
      </section>
      {atRisk.length === 0 ? (
        <div className="panel empty-state">No original expires before its horizon.</div>
      ) : (
        <AtRiskTable
          rows={atRisk.map((o) => ({ ...o, expiresAt: o.expiresAt.toISOString(), horizonAt: o.horizonAt.toISOString() }))}
          canAct={can(user.role, "originals:pin")}
          action={bulkRetentionAction}
        />
      )}
    </>
  );
}

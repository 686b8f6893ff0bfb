import { AtRiskTable } from "@/components/AtRiskTable";
import { ExpiryChart } from "@/components/charts/ExpiryChart";
import { prepareExpirySeries } from "@/components/charts/expiry-series";
import { can } from "@/lib/core/permissions";
import { requireUser } from "@/lib/auth/session";
import { expiriesByWeek, listAtRiskOriginals } from "@/lib/server/retention";
import { bulkRetentionAction } from "./actions";

export const metadata = { title: "Retention" };

const WEEKS = 12;

export default async function RetentionPage() {
  const user = await requireUser();
  const now = new Date();
  const [atRisk, expiries] = await Promise.all([listAtRiskOriginals(), expiriesByWeek(now, WEEKS)]);
  return (
    <>
      <h1>Retention</h1>
      <p className="subtitle">Evidence-bearing originals that expire before their evidence horizon, soonest first.</p>
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

import Link from "next/link";
import { humanize } from "@/components/format";
import { Time } from "@/components/Time";
import { listAtRiskOriginals } from "@/lib/server/at-risk";

export const metadata = { title: "Retention" };

export default async function RetentionPage() {
  const atRisk = await listAtRiskOriginals();
  return (
    <>
      <h1>Retention</h1>
      <p className="subtitle">Evidence-bearing originals that expire before their evidence horizon, soonest first.</p>
      {atRisk.length === 0 ? (
        <div className="panel empty-state">No original expires before its horizon.</div>
      ) : (
        <table className="data" aria-label="Originals at risk">
          <thead>
            <tr>
              <th>Expires</th>
              <th>Horizon</th>
              <th>Session</th>
              <th className="num">Seq</th>
              <th>Class</th>
            </tr>
          </thead>
          <tbody>
            {atRisk.map((o) => (
              <tr key={o.spanId}>
                <td><Time value={o.expiresAt} /></td>
                <td><Time value={o.horizonAt} /></td>
                <td><Link href={`/sessions/${o.sessionId}`}>{o.sessionTitle}</Link></td>
                <td className="num">{o.seq ?? "—"}</td>
                <td>{humanize(o.class)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

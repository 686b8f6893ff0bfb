import Link from "next/link";
import { humanize } from "@/components/format";
import { Time } from "@/components/Time";
import { listRefusals } from "@/lib/server/refusals";

export const metadata = { title: "Refusals" };

export default async function RefusalsPage() {
  const refusals = await listRefusals({ limit: 200 });
  return (
    <>
      <h1>Refusals</h1>
      <p className="subtitle">Every time the gate kept a span verbatim because a summary would have lost its evidence.</p>
      {refusals.length === 0 ? (
        <div className="panel empty-state">No refusals yet.</div>
      ) : (
        <table className="data" aria-label="Refusal events">
          <thead>
            <tr>
              <th>When</th>
              <th>Session</th>
              <th className="num">Seq</th>
              <th>Cell</th>
              <th>Reason</th>
              <th>Requested by</th>
              <th className="num">Atoms at risk</th>
            </tr>
          </thead>
          <tbody>
            {refusals.map((r) => (
              <tr key={r.id}>
                <td><Time value={r.occurredAt} /></td>
                <td><Link href={`/sessions/${r.sessionId}`}>{r.sessionTitle}</Link></td>
                <td className="num"><Link href={`/spans/${r.spanId}`}>{r.seq ?? "span"}</Link></td>
                <td>{humanize(r.cellClass)} × {humanize(r.cellProvenance)}</td>
                <td>{r.reason}</td>
                <td className="mono">{r.requester}</td>
                <td className="num">{r.atomsAtRisk}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

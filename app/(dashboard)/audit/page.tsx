import { Time } from "@/components/Time";
import { listAuditLog } from "@/lib/server/audit-log";

export const metadata = { title: "Audit log" };

function show(value: unknown): string {
  return value === null || value === undefined ? "" : JSON.stringify(value);
}

export default async function AuditPage() {
  const rows = await listAuditLog({ limit: 300 });
  return (
    <>
      <h1>Audit log</h1>
      <p className="subtitle">Every operator, admin and sweeper act, append-only.</p>
      {rows.length === 0 ? (
        <div className="panel empty-state">Nothing recorded yet.</div>
      ) : (
        <table className="data" aria-label="Audit log">
          <thead>
            <tr>
              <th>When</th>
              <th>Actor</th>
              <th>Act</th>
              <th>Target</th>
              <th>Before</th>
              <th>After</th>
              <th>Reason</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                <td><Time value={row.at} /></td>
                <td>{row.actorLabel}</td>
                <td className="mono">{row.act}</td>
                <td className="mono">{row.targetType} {row.targetId.slice(0, 8)}</td>
                <td className="mono">{show(row.before)}</td>
                <td className="mono">{show(row.after)}</td>
                <td>{row.reason ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

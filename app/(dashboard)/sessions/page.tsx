import Link from "next/link";
import { listSessions } from "@/lib/server/sessions";

export const metadata = { title: "Sessions" };

export default async function SessionsPage() {
  const sessions = await listSessions({ limit: 100 });
  return (
    <>
      <h1>Sessions</h1>
      <p className="subtitle">Agent runs whose transcripts Custodian holds, most recently active first.</p>
      {sessions.length === 0 ? (
        <div className="panel empty-state">No sessions yet. Stream spans from a runtime or import a transcript.</div>
      ) : (
        <table className="data" aria-label="Sessions">
          <thead>
            <tr>
              <th>Session</th>
              <th>Project</th>
              <th>Runtime</th>
              <th className="num">Spans</th>
              <th className="num">Refusals</th>
              <th>Last activity</th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <tr key={s.id}>
                <td>
                  <Link href={`/sessions/${s.id}`}>{s.title ?? s.externalId}</Link>
                  <div className="mono" style={{ color: "var(--muted)" }}>{s.externalId}</div>
                </td>
                <td>{s.projectSlug}</td>
                <td>{s.runtime}</td>
                <td className="num">{s.spanCount}</td>
                <td className="num">{s.refusalCount > 0 ? <span className="badge lost">{s.refusalCount}</span> : 0}</td>
                <td>
                  <time dateTime={s.lastActivityAt.toISOString()}>{s.lastActivityAt.toISOString().slice(0, 16).replace("T", " ")}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

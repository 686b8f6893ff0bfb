import Link from "next/link";
import { Time } from "@/components/Time";
import { projectHref } from "@/components/project-href";
import { requireMember } from "@/lib/auth/project-access";
import { projectAuditLog } from "@/lib/server/dashboard";

export const metadata = { title: "Audit log" };

function show(value: unknown): string {
  return value === null || value === undefined ? "" : JSON.stringify(value);
}

export default async function AuditPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const { project } = await requireMember((await params).slug);
  const query = await searchParams;
  const { rows, acts } = await projectAuditLog(project.id, {
    act: query.act || undefined,
    actor: query.actor || undefined,
    target: query.target || undefined,
  });
  return (
    <>
      <h1>Audit log</h1>
      <p className="subtitle">Every operator, admin and sweeper act, append-only.</p>
      <form
        method="get"
        className="panel"
        style={{ display: "flex", gap: 12, alignItems: "end", flexWrap: "wrap", marginBottom: 16 }}
        aria-label="Filter the audit log"
      >
        <label>
          Act
          <br />
          <select name="act" defaultValue={query.act ?? ""}>
            <option value="">Any</option>
            {acts.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <label>
          Actor
          <br />
          <input name="actor" defaultValue={query.actor ?? ""} placeholder="email, key prefix, sweeper" />
        </label>
        <label>
          Target id
          <br />
          <input name="target" defaultValue={query.target ?? ""} placeholder="span or key id (prefix)" />
        </label>
        <button type="submit" className="button">
          Filter
        </button>
      </form>
      {rows.length === 0 ? (
        <div className="panel empty-state">
          Nothing recorded{query.act || query.actor || query.target ? " that matches" : " yet"}.
        </div>
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
                <td>
                  <Time value={row.at} />
                </td>
                <td>{row.actorLabel}</td>
                <td className="mono">{row.act}</td>
                <td className="mono">
                  {row.targetType === "span" ? (
                    <Link href={projectHref(project.slug, `/spans/${row.targetId}`)}>span {row.targetId.slice(0, 8)}</Link>
                  ) : (
                    `${row.targetType} ${row.targetId.slice(0, 8)}`
                  )}
                </td>
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

import { humanize } from "@/components/format";
import { Time } from "@/components/Time";
import { listProjectSettings } from "@/lib/server/settings";

export const metadata = { title: "Settings" };

export default async function SettingsPage() {
  const projects = await listProjectSettings();
  return (
    <>
      <h1>Settings</h1>
      <p className="subtitle">Projects, their retention policies and their API keys. Create keys with <code>npm run custodian -- keys create</code>.</p>
      {projects.map((project) => (
        <section key={project.id} className="panel" style={{ marginBottom: 16 }} aria-label={`Project ${project.slug}`}>
          <h2 style={{ marginTop: 0 }}>
            {project.name} <span className="mono" style={{ color: "var(--muted)" }}>{project.slug}</span>
          </h2>
          <p>
            Evidence horizon <strong>{project.policy.evidenceHorizonDays} days</strong>; originals kept{" "}
            {(["NARRATIVE", "STRUCTURED", "SIDE_EFFECTING"] as const).map((cls, i) => (
              <span key={cls}>
                {i > 0 ? ", " : ""}
                {humanize(cls)} <strong>{project.policy.ttlDays[cls]} days</strong>
              </span>
            ))}
            {project.policyIsDefault ? " (defaults)" : ""}.{" "}
            {project.policy.evidenceWorkloads ? (
              <span className="badge safe">Evidence workloads on</span>
            ) : (
              <span className="badge risk">Evidence workloads off: structured spans reclaim without a durable pointer</span>
            )}
          </p>
          <table className="data" aria-label={`API keys of ${project.slug}`}>
            <thead>
              <tr>
                <th>Key</th>
                <th>Name</th>
                <th>Role</th>
                <th>Created</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {project.apiKeys.length === 0 ? (
                <tr><td colSpan={5} className="empty-state">No API keys.</td></tr>
              ) : (
                project.apiKeys.map((k) => (
                  <tr key={k.id}>
                    <td className="mono">{k.prefix}…</td>
                    <td>{k.name}</td>
                    <td>{humanize(k.role)}</td>
                    <td><Time value={k.createdAt} /></td>
                    <td>{k.revokedAt ? <span className="badge lost">revoked</span> : <span className="badge safe">active</span>}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </section>
      ))}
    </>
  );
}

import { ActionForm } from "@/components/ActionForm";
import { humanize } from "@/components/format";
import { Time } from "@/components/Time";
import { can, ROLES } from "@/lib/core/permissions";
import { requireUser } from "@/lib/auth/session";
import { listProjectSettings } from "@/lib/server/admin";
import { listUsers } from "@/lib/server/admin";
import { createKeyAction, inviteUserAction, revokeKeyAction, setRoleAction, updatePolicyAction } from "./actions";

export const metadata = { title: "Settings" };

function RoleSelect({ name = "role", defaultValue }: { name?: string; defaultValue: string }) {
  return (
    <select name={name} defaultValue={defaultValue} aria-label="Role">
      {ROLES.map((r) => (
        <option key={r} value={r}>
          {humanize(r)}
        </option>
      ))}
    </select>
  );
}

/** Settings list every project's keys and every person: the page is for those who manage people. */
export default async function SettingsPage() {
  const user = await requireUser("users:manage");
  const manageKeys = can(user.role, "keys:manage");
  const manageUsers = can(user.role, "users:manage");
  const [projects, users] = await Promise.all([listProjectSettings(), listUsers()]);
  return (
    <>
      <h1>Settings</h1>
      <p className="subtitle">Projects, their retention policies and API keys; people and their roles.</p>
      {projects.map((project) => (
        <section key={project.id} className="panel" style={{ marginBottom: 16 }} aria-label={`Project ${project.slug}`}>
          <h2 style={{ marginTop: 0 }}>
            {project.name}{" "}
            <span className="mono" style={{ color: "var(--muted)" }}>
              {project.slug}
            </span>
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
          {can(user.role, "policy:write") ? (
            <details style={{ margin: "8px 0 16px" }}>
              <summary>Edit retention policy</summary>
              <ActionForm action={updatePolicyAction} label={`Retention policy of ${project.slug}`}>
                <input type="hidden" name="projectId" value={project.id} />
                <label>
                  Evidence horizon (days)
                  <br />
                  <input
                    name="evidenceHorizonDays"
                    type="number"
                    min={1}
                    defaultValue={project.policy.evidenceHorizonDays}
                    required
                  />
                </label>
                <label>
                  Narrative TTL
                  <br />
                  <input name="ttlNarrative" type="number" min={0} defaultValue={project.policy.ttlDays.NARRATIVE} required />
                </label>
                <label>
                  Structured TTL
                  <br />
                  <input name="ttlStructured" type="number" min={0} defaultValue={project.policy.ttlDays.STRUCTURED} required />
                </label>
                <label>
                  Side-effecting TTL
                  <br />
                  <input
                    name="ttlSideEffecting"
                    type="number"
                    min={0}
                    defaultValue={project.policy.ttlDays.SIDE_EFFECTING}
                    required
                  />
                </label>
                <label>
                  <input name="evidenceWorkloads" type="checkbox" defaultChecked={project.policy.evidenceWorkloads} /> This
                  project has evidence-demanding workloads (audit, replay, contradiction checks, re-execution)
                </label>
                <label style={{ flexBasis: "100%" }}>
                  System config prefixes (one per line)
                  <br />
                  <textarea
                    name="systemConfigPrefixes"
                    rows={5}
                    cols={40}
                    defaultValue={project.policy.systemConfigPrefixes.join("\n")}
                  />
                </label>
                <label style={{ flexBasis: "100%" }}>
                  Canned question edits (JSON: {"{"}&quot;questionId&quot;: {"{"}&quot;title&quot;, &quot;anyOf&quot;{"}"}
                  {"}"})
                  <br />
                  <textarea
                    name="cannedQuestions"
                    rows={4}
                    cols={60}
                    className="mono"
                    defaultValue={JSON.stringify(project.cannedQuestions, null, 2)}
                  />
                </label>
                <label>
                  Reason (required)
                  <br />
                  <input name="reason" required />
                </label>
                <p style={{ flexBasis: "100%", color: "var(--muted)", margin: 0 }}>
                  New TTLs apply to originals received from now on; the horizon and the workloads switch apply at once.
                </p>
                <button type="submit" className="button">
                  Save policy
                </button>
              </ActionForm>
            </details>
          ) : null}
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
                <tr>
                  <td colSpan={5} className="empty-state">
                    No API keys.
                  </td>
                </tr>
              ) : (
                project.apiKeys.map((k) => (
                  <tr key={k.id}>
                    <td className="mono">{k.prefix}…</td>
                    <td>{k.name}</td>
                    <td>{humanize(k.role)}</td>
                    <td>
                      <Time value={k.createdAt} />
                    </td>
                    <td>
                      {k.revokedAt ? (
                        <span className="badge lost">revoked</span>
                      ) : manageKeys ? (
                        <ActionForm action={revokeKeyAction} label={`Revoke ${k.name}`} inline>
                          <input type="hidden" name="keyId" value={k.id} />
                          <span className="badge safe">active</span>
                          <button type="submit" className="link-button">
                            Revoke
                          </button>
                        </ActionForm>
                      ) : (
                        <span className="badge safe">active</span>
                      )}
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
          {manageKeys ? (
            <div style={{ marginTop: 12 }}>
              <ActionForm action={createKeyAction} label={`New API key for ${project.slug}`}>
                <input type="hidden" name="projectId" value={project.id} />
                <label>
                  New key name
                  <br />
                  <input name="name" required maxLength={100} placeholder="e.g. ci-runner" />
                </label>
                <RoleSelect defaultValue="OPERATOR" />
                <button type="submit" className="button">
                  Create key
                </button>
              </ActionForm>
            </div>
          ) : null}
        </section>
      ))}
      <section className="panel" aria-label="People">
        <h2 style={{ marginTop: 0 }}>People</h2>
        <table className="data" aria-label="Users">
          <thead>
            <tr>
              <th>Email</th>
              <th>Name</th>
              <th>Role</th>
              <th>Since</th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.id}>
                <td>{u.email}</td>
                <td>{u.name}</td>
                <td>
                  {manageUsers && u.id !== user.id ? (
                    <ActionForm action={setRoleAction} label={`Role of ${u.email}`} inline>
                      <input type="hidden" name="userId" value={u.id} />
                      <RoleSelect defaultValue={u.role} />
                      <button type="submit" className="link-button">
                        Save
                      </button>
                    </ActionForm>
                  ) : (
                    humanize(u.role)
                  )}
                </td>
                <td>
                  <Time value={u.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {manageUsers ? (
          <div style={{ marginTop: 12 }}>
            <ActionForm action={inviteUserAction} label="Invite a person">
              <label>
                Email
                <br />
                <input name="email" type="email" required />
              </label>
              <RoleSelect defaultValue="VIEWER" />
              <button type="submit" className="button">
                Invite
              </button>
            </ActionForm>
          </div>
        ) : null}
      </section>
    </>
  );
}

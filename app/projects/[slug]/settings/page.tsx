import { ActionForm } from "@/components/ActionForm";
import { humanize } from "@/components/format";
import { Time } from "@/components/Time";
import { can } from "@/lib/core/permissions";
import type { FormAction, ProjectAction } from "@/lib/auth/define-action";
import { requireMember } from "@/lib/auth/project-access";
import { MembersSection, RoleSelect } from "./MembersSection";
import { listMembers, projectSettings } from "@/lib/server/admin";
import {
  createKeyAction,
  inviteMemberAction,
  removeMemberAction,
  revokeKeyAction,
  setMemberRoleAction,
  updatePolicyAction,
} from "./actions";

export const metadata = { title: "Settings" };

/** A project's settings (its policy, its API keys, its members): for the project's admins only. */
export default async function SettingsPage({ params }: { params: Promise<{ slug: string }> }) {
  const access = await requireMember((await params).slug, "users:manage");
  const { user, role } = access;
  const manageKeys = can(role, "keys:manage");
  const manageUsers = can(role, "users:manage");
  const [project, members] = await Promise.all([projectSettings(access.project.id), listMembers(access.project.id)]);
  const bound = <T,>(action: ProjectAction<T>): FormAction<T> => action.bind(null, project.slug);
  return (
    <>
      <h1>Settings</h1>
      <p className="subtitle">This project's retention policy, API keys and members.</p>
      <section className="panel" style={{ marginBottom: 16 }} aria-label={`Project ${project.slug}`}>
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
        {can(role, "policy:write") ? (
          <details style={{ margin: "8px 0 16px" }}>
            <summary>Edit retention policy</summary>
            <ActionForm action={bound(updatePolicyAction)} label={`Retention policy of ${project.slug}`}>
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
                <input name="evidenceWorkloads" type="checkbox" defaultChecked={project.policy.evidenceWorkloads} /> This project
                has evidence-demanding workloads (audit, replay, contradiction checks, re-execution)
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
                      <ActionForm action={bound(revokeKeyAction)} label={`Revoke ${k.name}`} inline>
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
            <ActionForm action={bound(createKeyAction)} label={`New API key for ${project.slug}`}>
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
      <MembersSection
        members={members}
        me={user.id}
        canManage={manageUsers}
        actions={{ setRole: bound(setMemberRoleAction), remove: bound(removeMemberAction), invite: bound(inviteMemberAction) }}
      />
    </>
  );
}

import { ActionForm } from "@/components/ActionForm";
import { policyFieldLabel, policyValueLabel } from "@/components/policy-labels";
import { FOLLOW_PREVIEW } from "../preview-href";
import Link from "next/link";
import { Time } from "@/components/Time";
import { can } from "@/lib/core/permissions";
import { requireMember } from "@/lib/auth/project-access";
import { projectHref } from "@/components/project-href";
import { currentPolicy, listPolicyVersions } from "@/lib/server/retention";
import { rollbackPolicyAction } from "../actions";

export const metadata = { title: "Retention policy history" };

/**
 * Every saved version of the project's retention policy: who, when, why, and what changed. Rolling
 * back to a version that keeps evidence at least as long saves at once; one that gives up evidence
 * opens its preview on the retention page.
 */
export default async function PolicyHistoryPage({ params }: { params: Promise<{ slug: string }> }) {
  const { project, role } = await requireMember((await params).slug);
  const [versions, current] = await Promise.all([listPolicyVersions(project.id), currentPolicy(project.id)]);
  const canRollBack = can(role, "policy:write");
  const rollback = rollbackPolicyAction.bind(null, project.slug);
  return (
    <>
      <h1>Retention policy history</h1>
      <p className="subtitle">
        {project.slug}: version {current.version} is in force.{" "}
        <Link href={projectHref(project.slug, "/retention")}>Back to retention</Link>
      </p>
      {versions.length === 0 ? (
        <div className="panel empty-state">The policy has never been changed.</div>
      ) : (
        <table aria-label="Policy versions">
          <thead>
            <tr>
              <th>Version</th>
              <th>When</th>
              <th>Who</th>
              <th>Why</th>
              <th>Changes</th>
              {canRollBack ? <th>Roll back</th> : null}
            </tr>
          </thead>
          <tbody>
            {versions.map((v) => (
              <tr key={v.version} aria-label={`Version ${v.version}`}>
                <td>
                  {v.version}
                  {v.rollbackOf !== null ? ` (rollback to ${v.rollbackOf})` : ""}
                </td>
                <td>
                  <Time value={v.at} />
                </td>
                <td>{v.actor.label}</td>
                <td>{v.reason ?? "—"}</td>
                <td>
                  <ul style={{ margin: 0, paddingLeft: 16 }}>
                    {v.changes.map((c) => (
                      <li key={c.field}>
                        {policyFieldLabel(c.field)}:{" "}
                        {c.field === "systemConfigPrefixes"
                          ? [
                              c.added?.length ? `+ ${c.added.join(", ")}` : "",
                              c.removed?.length ? `− ${c.removed.join(", ")}` : "",
                            ]
                              .filter(Boolean)
                              .join("; ")
                          : `${policyValueLabel(c.field, c.before)} → ${policyValueLabel(c.field, c.after)}`}
                      </li>
                    ))}
                  </ul>
                </td>
                {canRollBack ? (
                  <td>
                    {v.version === current.version ? (
                      "in force"
                    ) : (
                      <ActionForm action={rollback} label={`Roll back to version ${v.version}`} inline follow={FOLLOW_PREVIEW}>
                        <input type="hidden" name="toVersion" value={v.version} />
                        <input type="hidden" name="version" value={current.version} />
                        <label>
                          Reason
                          <br />
                          <input name="reason" maxLength={1000} />
                        </label>
                        <button className="button" type="submit">
                          Roll back to {v.version}
                        </button>
                      </ActionForm>
                    )}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

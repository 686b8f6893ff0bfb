import Link from "next/link";
import { ActionForm } from "@/components/ActionForm";
import { Time } from "@/components/Time";
import { can } from "@/lib/core/permissions";
import { requireUser } from "@/lib/auth/session";
import { currentPolicy, listPolicyVersions } from "@/lib/server/retention";
import { rollbackPolicyAction } from "../actions";
import { pickProject } from "../project";

export const metadata = { title: "Retention policy history" };

function show(value: unknown): string {
  return Array.isArray(value) ? `${value.length} prefixes` : String(value);
}

/** Every saved version of the project's retention policy: who, when, why, and what changed. */
export default async function PolicyHistoryPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requireUser();
  const { project } = await pickProject(searchParams);
  if (!project) return <div className="panel empty-state">No project yet.</div>;
  const [versions, current] = await Promise.all([listPolicyVersions(project.id), currentPolicy(project.id)]);
  const canRollBack = can(user.role, "policy:write");
  return (
    <>
      <h1>Retention policy history</h1>
      <p className="subtitle">
        {project.slug}: version {current.version} is in force.{" "}
        <Link href={`/retention?project=${project.id}`}>Back to retention</Link>
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
                        <span className="mono">{c.field}</span>:{" "}
                        {c.field === "systemConfigPrefixes"
                          ? [
                              c.added?.length ? `+ ${c.added.join(", ")}` : "",
                              c.removed?.length ? `− ${c.removed.join(", ")}` : "",
                            ]
                              .filter(Boolean)
                              .join("; ")
                          : `${show(c.before)} → ${show(c.after)}`}
                      </li>
                    ))}
                  </ul>
                </td>
                {canRollBack ? (
                  <td>
                    {v.version === current.version ? (
                      "in force"
                    ) : (
                      <ActionForm action={rollbackPolicyAction} label={`Roll back to version ${v.version}`} inline>
                        <input type="hidden" name="projectId" value={project.id} />
                        <input type="hidden" name="toVersion" value={v.version} />
                        <input type="hidden" name="version" value={current.version} />
                        <input name="reason" placeholder="Reason" aria-label="Reason" maxLength={1000} />
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

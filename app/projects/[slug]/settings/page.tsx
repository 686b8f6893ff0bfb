import { ActionForm } from "@/components/ActionForm";
import { FOLLOW_PREVIEW } from "../retention/preview-href";
import { PolicyFormInputs } from "@/components/PolicyFormInputs";
import { humanize } from "@/components/format";
import { ApiKeyList } from "@/components/ApiKeyList";
import { ListQueryError } from "@/components/ListQueryError";
import { pageWindow } from "@/components/Pager";
import { projectHref } from "@/components/project-href";
import { AppError } from "@/lib/core/errors";
import { KEY_LIST_DEFAULTS, listKeyPage, listQueryParams, type RawSearchParams, withQuery } from "@/lib/server/dashboard";
import { can } from "@/lib/core/permissions";
import type { FormAction, ProjectAction } from "@/lib/auth/define-action";
import { requireMember } from "@/lib/auth/project-access";
import { RoleSelect } from "@/components/RoleSelect";
import { MembersSection } from "./MembersSection";
import { listMembers } from "@/lib/server/admin";
import { currentPolicy } from "@/lib/server/retention";
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
export default async function SettingsPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<RawSearchParams>;
}) {
  const access = await requireMember((await params).slug, "users:manage");
  const settingsPath = projectHref(access.project.slug, "/settings");
  let keys: Awaited<ReturnType<typeof listKeyPage>>;
  try {
    keys = await listKeyPage(access.project.id, await searchParams);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "VALIDATION_FAILED") throw error;
    return <ListQueryError title="Settings" error={error} resetHref={settingsPath} resetLabel="Show the settings" />;
  }
  const { user, role } = access;
  const manageKeys = can(role, "keys:manage");
  const manageUsers = can(role, "users:manage");
  const { project } = access;
  // The form's fields and the version it sends back come from this one read: a save landing between
  // two reads would pair a newer version with older values, and the version check would pass.
  const [members, current] = await Promise.all([listMembers(project.id), currentPolicy(project.id)]);
  const { policy } = current;
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
          Evidence horizon <strong>{policy.evidenceHorizonDays} days</strong>; originals kept{" "}
          {(["NARRATIVE", "STRUCTURED", "SIDE_EFFECTING"] as const).map((cls, i) => (
            <span key={cls}>
              {i > 0 ? ", " : ""}
              {humanize(cls)} <strong>{policy.ttlDays[cls]} days</strong>
            </span>
          ))}
          {current.isDefault ? " (defaults)" : ""}.{" "}
          {policy.evidenceWorkloads ? (
            <span className="badge safe">Evidence workloads on</span>
          ) : (
            <span className="badge risk">Evidence workloads off: structured spans reclaim without a durable pointer</span>
          )}
        </p>
        {can(role, "policy:write") ? (
          <details style={{ margin: "8px 0 16px" }}>
            <summary>Edit retention policy</summary>
            <ActionForm action={bound(updatePolicyAction)} label={`Retention policy of ${project.slug}`} follow={FOLLOW_PREVIEW}>
              <input type="hidden" name="version" value={current.version} />
              <PolicyFormInputs policy={policy} />
              <label style={{ flexBasis: "100%" }}>
                Canned question edits (JSON: {"{"}&quot;questionId&quot;: {"{"}&quot;title&quot;, &quot;anyOf&quot;{"}"}
                {"}"})
                <br />
                <textarea
                  name="cannedQuestions"
                  rows={4}
                  cols={60}
                  className="mono"
                  defaultValue={JSON.stringify(current.cannedQuestions, null, 2)}
                />
              </label>
              <label>
                Reason (required)
                <br />
                <input name="reason" required />
              </label>
              <p style={{ flexBasis: "100%", color: "var(--muted)", margin: 0 }}>
                Version {current.version}. Tick evidence workloads when this project has evidence-demanding workloads (audit,
                replay, contradiction checks, re-execution). New TTLs re-date the originals already held; the horizon and the
                workloads switch apply at once. A change that shortens a TTL or the horizon, or removes a prefix, is previewed on
                the retention page first and saved there.
              </p>
              <button type="submit" className="button">
                Save policy
              </button>
            </ActionForm>
          </details>
        ) : null}
        <h3>API keys</h3>
        <ApiKeyList
          project={project.slug}
          action={settingsPath}
          rows={keys.rows}
          window={pageWindow(keys.total, keys.page, keys.pageSize)}
          status={keys.query.keys}
          sort={keys.query.keysSort}
          hrefFor={(n) => withQuery(settingsPath, listQueryParams(keys.query, KEY_LIST_DEFAULTS, { keysPage: n }))}
          revoke={manageKeys ? bound(revokeKeyAction) : undefined}
        />
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

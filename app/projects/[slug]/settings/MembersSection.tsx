import { ActionForm } from "@/components/ActionForm";
import { PersonRole, RoleSelect } from "@/components/RoleSelect";
import { Time } from "@/components/Time";
import type { FormAction } from "@/lib/auth/define-action";
import type { ProjectMemberRow } from "@/lib/server/admin";

/** The project's members with their role here; its admins change roles, remove people and invite by email. */
export function MembersSection({
  members,
  me,
  canManage,
  actions,
}: {
  members: ProjectMemberRow[];
  me: string;
  canManage: boolean;
  actions: { setRole: FormAction; remove: FormAction; invite: FormAction };
}) {
  return (
    <section className="panel" aria-label="Members">
      <h2 style={{ marginTop: 0 }}>Members</h2>
      <table className="data" aria-label="Members of this project">
        <thead>
          <tr>
            <th>Email</th>
            <th>Name</th>
            <th>Role here</th>
            <th>Member since</th>
            {canManage ? <th>Remove</th> : null}
          </tr>
        </thead>
        <tbody>
          {members.map((m) => (
            <tr key={m.userId}>
              <td>{m.email}</td>
              <td>{m.name}</td>
              <td>
                <PersonRole
                  userId={m.userId}
                  role={m.role}
                  label={`Role of ${m.email}`}
                  setRole={canManage && m.userId !== me ? actions.setRole : null}
                />
              </td>
              <td>
                <Time value={m.since} />
              </td>
              {canManage ? (
                <td>
                  {m.userId !== me ? (
                    <ActionForm action={actions.remove} label={`Remove ${m.email}`} inline>
                      <input type="hidden" name="userId" value={m.userId} />
                      <button type="submit" className="link-button">
                        Remove
                      </button>
                    </ActionForm>
                  ) : (
                    "you"
                  )}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      {canManage ? (
        <div style={{ marginTop: 12 }}>
          <ActionForm action={actions.invite} label="Invite to this project">
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
  );
}

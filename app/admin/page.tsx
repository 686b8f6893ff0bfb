import Link from "next/link";
import { ActionForm } from "@/components/ActionForm";
import { NewPasswordField } from "@/components/NewPasswordField";
import { projectHref } from "@/components/project-href";
import { Time } from "@/components/Time";
import { requireInstanceAdmin } from "@/lib/auth/project-access";
import { listProjects, listUsers, MIN_PASSWORD_LENGTH } from "@/lib/server/admin";
import { PersonRole, RoleSelect } from "@/components/RoleSelect";
import { addToProjectAction, createProjectAction, setInstanceRoleAction, setPasswordAction } from "./actions";

export const metadata = { title: "Instance admin" };

/**
 * The instance admin's page: every project (create one, add anyone to any), every person and their
 * instance role. Only User.role ADMIN opens it; anyone else gets the 404 page.
 */
export default async function AdminPage() {
  const user = await requireInstanceAdmin();
  const [projects, people] = await Promise.all([listProjects(), listUsers()]);
  return (
    <main id="main" className="content">
      <p>
        <Link href="/">← Dashboard</Link>
      </p>
      <h1>Instance admin</h1>
      <p className="subtitle">
        Projects and people. What someone sees inside a project is their role there, set on its Settings page. Setting someone's
        password signs them out everywhere.
      </p>
      <section className="panel" aria-label="Projects" style={{ marginBottom: 16 }}>
        <h2 style={{ marginTop: 0 }}>Projects</h2>
        <table className="data" aria-label="All projects">
          <thead>
            <tr>
              <th>Project</th>
              <th>Slug</th>
              <th className="num">Members</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {projects.map((p) => (
              <tr key={p.id}>
                <td>
                  <Link href={projectHref(p.slug)}>{p.name}</Link>
                </td>
                <td className="mono">{p.slug}</td>
                <td className="num">{p.members}</td>
                <td className="when">
                  <Time value={p.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div style={{ marginTop: 12 }}>
          <ActionForm action={createProjectAction} label="Create a project">
            <label>
              Slug
              <br />
              <input name="slug" required maxLength={63} pattern="[a-z0-9][a-z0-9-]*" placeholder="e.g. payments" />
            </label>
            <label>
              Name
              <br />
              <input name="name" maxLength={200} />
            </label>
            <button type="submit" className="button">
              Create project
            </button>
          </ActionForm>
        </div>
        <div style={{ marginTop: 12 }}>
          <ActionForm action={addToProjectAction} label="Add a person to a project">
            <label>
              Project
              <br />
              <select name="projectSlug" required>
                {projects.map((p) => (
                  <option key={p.id} value={p.slug}>
                    {p.slug}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Email
              <br />
              <input name="email" type="email" required />
            </label>
            <RoleSelect defaultValue="VIEWER" />
            <button type="submit" className="button">
              Add
            </button>
          </ActionForm>
        </div>
      </section>
      <section className="panel" aria-label="People">
        <h2 style={{ marginTop: 0 }}>People</h2>
        <table className="data" aria-label="People and their instance roles">
          <thead>
            <tr>
              <th>Email</th>
              <th>Name</th>
              <th>Instance role</th>
              <th>Since</th>
              <th>Password</th>
            </tr>
          </thead>
          <tbody>
            {people.map((u) => (
              <tr key={u.id}>
                <td>{u.email}</td>
                <td>{u.name}</td>
                <td>
                  <PersonRole
                    userId={u.id}
                    role={u.role}
                    label={`Instance role of ${u.email}`}
                    setRole={u.id !== user.id ? setInstanceRoleAction : null}
                  />
                </td>
                <td className="when">
                  <Time value={u.createdAt} />
                </td>
                <td>
                  {u.id === user.id ? (
                    <Link href="/account">Change yours</Link>
                  ) : (
                    <ActionForm action={setPasswordAction} label={`Set the password of ${u.email}`}>
                      <input type="hidden" name="userId" value={u.id} />
                      <NewPasswordField minLength={MIN_PASSWORD_LENGTH} ariaLabel={`New password for ${u.email}`} />
                      <button type="submit" className="button">
                        Set password
                      </button>
                    </ActionForm>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </main>
  );
}

import Link from "next/link";
import { redirect } from "next/navigation";
import { projectHref } from "@/components/project-href";
import { requireUser } from "@/lib/auth/session";
import { listProjectsOf } from "@/lib/server/admin";
import { signOutAction } from "./login/actions";

export const metadata = { title: "Home" };

/** The person's first project, or, for someone who belongs to none yet, a page that says so. */
export default async function Home() {
  const user = await requireUser();
  const [first] = await listProjectsOf(user.id);
  if (first) redirect(projectHref(first.slug));
  return (
    <main id="main" className="status-page">
      <h1>No project yet</h1>
      <p>
        You ({user.email}) are not a member of any project. Ask an admin of a project to invite you to it.
        {user.role === "ADMIN" ? (
          <>
            {" "}
            As an instance admin you can create projects and add people on the <Link href="/admin">admin page</Link>.
          </>
        ) : null}
      </p>
      <p>
        <Link href="/account">Your account</Link>
      </p>
      <form action={signOutAction}>
        <button type="submit" className="link-button">
          Sign out
        </button>
      </form>
    </main>
  );
}

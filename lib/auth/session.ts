import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { ROLES, type RoleName } from "@/lib/core/permissions";
import { getAuth } from "./server";

export interface SignedInUser {
  id: string;
  email: string;
  name: string;
  /** The instance role: ADMIN manages projects and people. Inside a project only the membership's role counts. */
  role: RoleName;
  /** The session the request is signed in with (kept when the person ends their other sessions). */
  sessionId?: string;
}

/** The signed-in person, or null. The role is read from the database on every request. */
export async function currentUser(): Promise<SignedInUser | null> {
  const session = await getAuth().api.getSession({ headers: await headers() });
  if (!session) return null;
  const role = (session.user as { role?: string }).role;
  return {
    id: session.user.id,
    email: session.user.email,
    name: session.user.name,
    role: (ROLES as readonly string[]).includes(role ?? "") ? (role as RoleName) : "VIEWER",
    sessionId: session.session.id,
  };
}

/**
 * For pages outside any project (the home page, old links): the first act of the page, before it
 * reads anything. A stranger is redirected to the sign-in page before anything is rendered. Pages of
 * a project use requireMember instead; the instance admin's, requireInstanceAdmin.
 */
export async function requireUser(): Promise<SignedInUser> {
  const user = await currentUser();
  if (!user) redirect("/login");
  return user;
}

import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { AppError } from "@/lib/core/errors";
import { can, requirePermission, ROLES, type Permission, type RoleName } from "@/lib/core/permissions";
import type { Actor } from "@/lib/server/audit";
import { getAuth } from "./server";

export interface SignedInUser {
  id: string;
  email: string;
  name: string;
  role: RoleName;
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
  };
}

/**
 * For pages: the first act of every page, before it reads anything (a layout's check does not stop
 * its page from rendering and streaming). A stranger is redirected to the sign-in page; a person
 * whose role lacks `permission` gets the 404 page, as if the page did not exist. Both are thrown
 * before anything is rendered, so the response carries no data.
 */
export async function requireUser(permission?: Permission): Promise<SignedInUser> {
  const user = await currentUser();
  if (!user) redirect("/login");
  if (permission && !can(user.role, permission)) notFound();
  return user;
}

/**
 * For server actions: the first line of every mutation. Fails with UNAUTHENTICATED or FORBIDDEN
 * before anything is read or written, whatever the UI showed.
 */
export async function authorize(permission: Permission): Promise<{ user: SignedInUser; actor: Actor }> {
  const user = await currentUser();
  if (!user) throw new AppError("UNAUTHENTICATED", "Sign in first");
  requirePermission(user.role, permission);
  return { user, actor: { type: "USER", id: user.id, label: user.email } };
}

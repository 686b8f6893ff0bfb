import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { AppError } from "@/lib/core/errors";
import { can, requirePermission, type Permission, type RoleName } from "@/lib/core/permissions";
import { findMembership, type ProjectRef } from "@/lib/server/admin";
import type { Actor } from "@/lib/server/audit";
import { currentUser, type SignedInUser } from "./session";

/** What a page, route or action of a project knows about its caller: who, in which project, with which role there. */
export interface ProjectAccess {
  user: SignedInUser;
  project: ProjectRef;
  /** The caller's role in this project (their membership's), never their instance role. */
  role: RoleName;
  /** Who the audit log names for acts done here. */
  actor: Actor;
}

export function actorOf(user: SignedInUser): Actor {
  return { type: "USER", id: user.id, label: user.email };
}

/** One lookup per request, however many server components (layout, page) ask. */
const membershipOf = cache(findMembership);

/**
 * The caller's access to the project named by slug, checked against their membership there:
 * NOT_FOUND when they are not a member (the same answer as for a project that does not exist, so
 * nobody learns which projects exist), FORBIDDEN when their role there lacks `permission`.
 */
export async function memberAccess(user: SignedInUser, slug: string, permission?: Permission): Promise<ProjectAccess> {
  const membership = await membershipOf(user.id, slug);
  if (!membership) throw new AppError("NOT_FOUND", "No such project");
  if (permission) requirePermission(membership.role, permission);
  return { user, project: membership.project, role: membership.role, actor: actorOf(user) };
}

/**
 * For pages of a project: their first line, before anything is read. A stranger is redirected to
 * the sign-in page; a person who is not a member, or whose role there lacks `permission`, gets the
 * 404 page, as if the project did not exist. Thrown before anything renders, so the response holds no data.
 */
export async function requireMember(slug: string, permission?: Permission): Promise<ProjectAccess> {
  const user = await currentUser();
  if (!user) redirect("/login");
  const membership = await membershipOf(user.id, slug);
  if (!membership || (permission && !can(membership.role, permission))) notFound();
  return { user, project: membership.project, role: membership.role, actor: actorOf(user) };
}

/**
 * For route handlers (and anything else answering with an AppError): UNAUTHENTICATED without a
 * session, NOT_FOUND for a project the caller is not a member of, FORBIDDEN for a role lacking `permission`.
 */
export async function authorizeMember(slug: string, permission?: Permission): Promise<ProjectAccess> {
  const user = await currentUser();
  if (!user) throw new AppError("UNAUTHENTICATED", "Sign in first");
  return memberAccess(user, slug, permission);
}

/** For the instance admin's pages: anyone else gets the 404 page. User.role ADMIN is the instance role. */
export async function requireInstanceAdmin(): Promise<SignedInUser> {
  const user = await currentUser();
  if (!user) redirect("/login");
  if (user.role !== "ADMIN") notFound();
  return user;
}

/** For the instance admin's acts (create a project, add anyone to any project, set an instance role). */
export function requireInstanceRole(user: SignedInUser): void {
  if (user.role !== "ADMIN") throw new AppError("FORBIDDEN", "This needs an instance admin");
}

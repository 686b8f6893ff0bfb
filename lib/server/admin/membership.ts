import { isUuid } from "@/lib/core/ids";
import { ROLES, type RoleName } from "@/lib/core/permissions";
import { db } from "@/lib/db/client";

export interface ProjectRef {
  id: string;
  slug: string;
  name: string;
}

export interface Membership {
  project: ProjectRef;
  /** The person's role in this project: what they may see and do in it. */
  role: RoleName;
}

/** Text Postgres can hold as it is: no NUL, no lone UTF-16 surrogate. */
function isStorableText(s: string): boolean {
  return !/\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
}

function asRole(role: string): RoleName {
  return (ROLES as readonly string[]).includes(role) ? (role as RoleName) : "VIEWER";
}

/**
 * A person's membership of the project named by slug, or null when they are not a member or there
 * is no such project (the two are told apart by no one). One statement: the slug's unique index,
 * then project_member's primary key.
 */
export async function findMembership(userId: string, slug: string): Promise<Membership | null> {
  // A slug text cannot hold (NUL, a lone surrogate) names no project, and must not reach the query (its error is a 500).
  if (!isUuid(userId) || slug.length === 0 || slug.length > 63 || !isStorableText(slug)) return null;
  const rows = await db().$queryRaw<Array<{ id: string; slug: string; name: string; role: string }>>`
    select p.id::text as id, p.slug, p.name, m.role::text as role
      from project p join project_member m on m.project_id = p.id and m.user_id = ${userId}::uuid
     where p.slug = ${slug}`;
  const row = rows[0];
  return row ? { project: { id: row.id, slug: row.slug, name: row.name }, role: asRole(row.role) } : null;
}

/** The projects a person belongs to, with their role in each, oldest project first (the first is their home). */
export async function listProjectsOf(userId: string): Promise<Array<ProjectRef & { role: RoleName }>> {
  if (!isUuid(userId)) return [];
  const rows = await db().$queryRaw<Array<{ id: string; slug: string; name: string; role: string }>>`
    select p.id::text as id, p.slug, p.name, m.role::text as role
      from project_member m join project p on p.id = m.project_id
     where m.user_id = ${userId}::uuid
     order by p.created_at, p.slug`;
  return rows.map((r) => ({ id: r.id, slug: r.slug, name: r.name, role: asRole(r.role) }));
}

/**
 * Which of the person's projects holds a session, a span or a refusal with this id (the one an old
 * link without a project meant), or null: only projects they belong to are looked in.
 */
export async function projectHolding(userId: string, kind: "session" | "span", id: string): Promise<string | null> {
  if (!isUuid(userId) || !isUuid(id)) return null;
  const rows =
    kind === "session"
      ? await db().$queryRaw<Array<{ slug: string }>>`
          select p.slug from session se join project p on p.id = se.project_id
            join project_member m on m.project_id = p.id and m.user_id = ${userId}::uuid
           where se.id = ${id}::uuid`
      : await db().$queryRaw<Array<{ slug: string }>>`
          select p.slug from span s join session se on se.id = s.session_id join project p on p.id = se.project_id
            join project_member m on m.project_id = p.id and m.user_id = ${userId}::uuid
           where s.id = ${id}::uuid
           limit 1`;
  return rows[0]?.slug ?? null;
}

import { AppError } from "./errors";

export const ROLES = ["VIEWER", "OPERATOR", "ADMIN"] as const;
export type RoleName = (typeof ROLES)[number];

/**
 * Roles as data: what each may do. The first line of every mutation asks `requirePermission`.
 * Operators run runtimes and keep evidence (ingest, reclaim, pin, extend, save questions); only admins remove
 * protection (unpin, shorten a TTL), change policy, or manage keys and people.
 */
export const ROLE_PERMISSIONS = {
  VIEWER: ["read"],
  OPERATOR: ["read", "spans:write", "gate:run", "originals:pin", "originals:extend", "imports:write", "questions:write"],
  ADMIN: [
    "read",
    "spans:write",
    "gate:run",
    "originals:pin",
    "originals:extend",
    "imports:write",
    "questions:write",
    "originals:unpin",
    "originals:shorten",
    "policy:write",
    "keys:manage",
    "users:manage",
  ],
} as const satisfies Record<RoleName, readonly string[]>;

export type Permission = (typeof ROLE_PERMISSIONS)["ADMIN"][number];

export function can(role: RoleName, permission: Permission): boolean {
  return (ROLE_PERMISSIONS[role] as readonly string[]).includes(permission);
}

export function requirePermission(role: RoleName, permission: Permission): void {
  if (!can(role, permission))
    throw new AppError("FORBIDDEN", `This needs the "${permission}" permission, which the ${role.toLowerCase()} role lacks`);
}

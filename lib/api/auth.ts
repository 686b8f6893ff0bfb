import { db, rawQuery } from "@/lib/db/client";
import { clientAddress, hashApiKey } from "@/lib/server/admin";
import { AppError } from "@/lib/core/errors";
import type { RoleName } from "@/lib/core/permissions";
import { countUnknownKey } from "./rate-limit";

export interface ApiCaller {
  projectId: string;
  keyId: string;
  role: RoleName;
  /** "api-key:<prefix>": how the caller appears in decisions and the audit log. */
  label: string;
}

const LAST_USED_RESOLUTION_MS = 60_000;

interface KeyRow {
  id: string;
  project_id: string;
  prefix: string;
  role: RoleName;
  revoked: boolean;
  /** Last used longer ago than LAST_USED_RESOLUTION_MS, or never: the use is written down. */
  note_use: boolean;
}

/**
 * The key with this hash, read on the pool without Prisma: every API request asks it, and Prisma's
 * work per request cost more than the indexed read (last_used_at holds UTC digits, compared in SQL).
 */
async function keyByHash(keyHash: string): Promise<KeyRow | undefined> {
  const [row] = await rawQuery<KeyRow>(
    `select id::text as id, project_id::text as project_id, prefix, role::text as role, revoked_at is not null as revoked,
            coalesce(last_used_at < (now() at time zone 'utc') - make_interval(secs => $2), true) as note_use
       from api_key where key_hash = $1`,
    [keyHash, LAST_USED_RESOLUTION_MS / 1000],
  );
  return row;
}

/**
 * Resolves `Authorization: Bearer <key>` to its project and role; 401 for a missing, unknown or
 * revoked key, 429 once an address has sent too many unknown keys.
 */
export async function authenticate(request: Request): Promise<ApiCaller> {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match)
    throw new AppError("UNAUTHENTICATED", "Send an API key as `Authorization: Bearer <key>`", {
      headers: { "WWW-Authenticate": "Bearer" },
    });
  const key = await keyByHash(hashApiKey(match[1]!));
  if (!key || key.revoked) {
    // Guessing keys is throttled per address: 429 with Retry-After past the limit.
    await countUnknownKey(clientAddress(request.headers));
    throw new AppError("UNAUTHENTICATED", "Unknown or revoked API key", { headers: { "WWW-Authenticate": "Bearer" } });
  }
  if (key.note_use) {
    // Coarse on purpose: one write a minute per key, not one per request.
    await db().apiKey.update({ where: { id: key.id }, data: { lastUsedAt: new Date() } });
  }
  return { projectId: key.project_id, keyId: key.id, role: key.role, label: `api-key:${key.prefix}` };
}

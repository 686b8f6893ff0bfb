import { db } from "@/lib/db/client";
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
  const key = await db().apiKey.findUnique({ where: { keyHash: hashApiKey(match[1]!) } });
  if (!key || key.revokedAt) {
    // Guessing keys is throttled per address: 429 with Retry-After past the limit.
    await countUnknownKey(clientAddress(request.headers));
    throw new AppError("UNAUTHENTICATED", "Unknown or revoked API key", { headers: { "WWW-Authenticate": "Bearer" } });
  }
  const now = new Date();
  if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    // Coarse on purpose: one write a minute per key, not one per request.
    await db().apiKey.update({ where: { id: key.id }, data: { lastUsedAt: now } });
  }
  return { projectId: key.projectId, keyId: key.id, role: key.role, label: `api-key:${key.prefix}` };
}

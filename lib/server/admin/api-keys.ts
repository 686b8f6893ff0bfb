import { createHash, randomBytes, randomUUID } from "node:crypto";
import { AppError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { db } from "@/lib/db/client";
import { writeAudit, type Actor } from "@/lib/server/audit";
import type { Role } from "@/lib/db/generated/client";

const KEY_PREFIX = "cust_";
/** Enough of the key to tell keys apart in a list, far too little to guess the rest. */
const DISPLAY_CHARS = 12;

/** API keys are 256 random bits, so a fast hash is enough: there is no password to brute-force. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export interface CreatedApiKey {
  id: string;
  name: string;
  prefix: string;
  role: Role;
  /** The key itself: returned once, never stored. */
  key: string;
}

/**
 * Creates a key for a project, audited as `api_key.create` in the same transaction: who created
 * which key with which role (a person, or the CLI as a system actor). There is no key without an
 * actor to answer for it.
 */
export async function createApiKey(projectId: string, name: string, role: Role, actor: Actor): Promise<CreatedApiKey> {
  if (!actor?.label) throw new Error("createApiKey needs the actor who creates the key");
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 100)
    throw new AppError("VALIDATION_FAILED", "A key needs a name", { fields: [{ path: "name", message: "1-100 characters" }] });
  const key = KEY_PREFIX + randomBytes(32).toString("base64url");
  const prefix = key.slice(0, DISPLAY_CHARS);
  const row = await db().$transaction(async (tx) => {
    const created = await tx.apiKey.create({
      data: { id: randomUUID(), projectId, name: trimmed, prefix, keyHash: hashApiKey(key), role },
    });
    await writeAudit(tx, {
      projectId,
      actor,
      act: "api_key.create",
      targetType: "api_key",
      targetId: created.id,
      after: { name: trimmed, prefix, role },
    });
    return created;
  });
  return { id: row.id, name: row.name, prefix, role: row.role, key };
}

/**
 * Revokes a key at once (the next request with it gets 401), audited as `api_key.revoke` in the
 * same transaction. Given a project, a key of another project is NOT_FOUND (the dashboard acts inside one).
 */
export async function revokeApiKey(keyId: string, actor: Actor, projectId?: string): Promise<void> {
  if (!actor?.label) throw new Error("revokeApiKey needs the actor who revokes the key");
  if (!isUuid(keyId)) throw new AppError("NOT_FOUND", "Key not found");
  await db().$transaction(async (tx) => {
    const key = await tx.apiKey.findUnique({ where: { id: keyId } });
    if (!key || (projectId !== undefined && key.projectId !== projectId)) throw new AppError("NOT_FOUND", "Key not found");
    if (key.revokedAt) return;
    const revokedAt = new Date();
    await tx.apiKey.update({ where: { id: keyId }, data: { revokedAt } });
    await writeAudit(tx, {
      projectId: key.projectId,
      actor,
      act: "api_key.revoke",
      targetType: "api_key",
      targetId: key.id,
      before: { revokedAt: null },
      after: { revokedAt },
      reason: null,
    });
  });
}

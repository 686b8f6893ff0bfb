import { createHash, randomBytes, randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
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

export async function createApiKey(projectId: string, name: string, role: Role = "OPERATOR"): Promise<CreatedApiKey> {
  const key = KEY_PREFIX + randomBytes(32).toString("base64url");
  const prefix = key.slice(0, DISPLAY_CHARS);
  const row = await db().apiKey.create({
    data: { id: randomUUID(), projectId, name, prefix, keyHash: hashApiKey(key), role },
  });
  return { id: row.id, name: row.name, prefix, role: row.role, key };
}

import { env } from "@/lib/core/env";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * The key that signs session cookies: BETTER_AUTH_SECRET when set (required to share sessions
 * across servers), otherwise one generated once and kept beside the embedded data, so a local
 * install keeps its sign-ins across restarts without any configuration.
 */
export function authSecret(): string {
  const configured = env().BETTER_AUTH_SECRET;
  if (configured) return configured;
  const file = path.resolve(process.cwd(), ".custodian", "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

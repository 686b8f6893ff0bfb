/**
 * Where the hooks and the stdio MCP relay find the server: CUSTODIAN_URL and CUSTODIAN_KEY, else
 * the config file (CUSTODIAN_CONFIG, default ~/.config/custodian/config.json:
 * `{"url": "...", "key": "...", "failClosed": false, "timeoutMs": 10000, "ledgerLimit": 40}`);
 * environment variables win over the file.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export interface ConnectionConfig {
  url?: string;
  key?: string;
  failClosed: boolean;
  timeoutMs: number;
  ledgerLimit: number;
  /** Where the hooks keep each session's import cursor. */
  stateDir: string;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_LEDGER_LIMIT = 40;

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.CUSTODIAN_CONFIG || join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "custodian", "config.json");
}

function readFile(path: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(readFileSync(path, "utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {}; // no file, or not JSON: the environment alone decides
  }
}

const positive = (value: unknown): number | undefined => {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : typeof value === "number" ? value : NaN;
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : undefined;
};
const flag = (value: unknown): boolean | undefined =>
  typeof value === "boolean" ? value : typeof value === "string" && value !== "" ? /^(1|true|yes|on)$/i.test(value) : undefined;
const text = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;

export function loadConnectionConfig(env: NodeJS.ProcessEnv = process.env): ConnectionConfig {
  const file = readFile(configPath(env));
  return {
    url: text(env.CUSTODIAN_URL) ?? text(file.url),
    key: text(env.CUSTODIAN_KEY) ?? text(file.key),
    failClosed: flag(env.CUSTODIAN_FAIL_CLOSED) ?? flag(file.failClosed) ?? false,
    timeoutMs: positive(env.CUSTODIAN_HOOK_TIMEOUT_MS) ?? positive(file.timeoutMs) ?? DEFAULT_TIMEOUT_MS,
    ledgerLimit: positive(env.CUSTODIAN_LEDGER_LIMIT) ?? positive(file.ledgerLimit) ?? DEFAULT_LEDGER_LIMIT,
    stateDir: text(env.CUSTODIAN_STATE_DIR) ?? text(file.stateDir) ?? join(homedir(), ".local", "state", "custodian", "hooks"),
  };
}

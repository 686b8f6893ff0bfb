import { createHash } from "node:crypto";
import { env } from "@/lib/core/env";
import { rawQuery } from "@/lib/db/client";

/**
 * Attempt counters in Postgres, shared by every server process: a fixed window per key, counted
 * and checked in one statement (concurrent attempts cannot all pass a stale read). Sign-in counts
 * failures per account and per address; unknown API keys count per address; the sign-in library's
 * own limiter counts here too.
 */

export interface ThrottleRule {
  /** Attempts allowed in one window. */
  limit: number;
  windowSeconds: number;
}

export interface ThrottleDecision {
  allowed: boolean;
  /** Attempts counted in the current window, this one included. */
  hits: number;
  /** Seconds until the window ends (at least 1). */
  retryAfterSeconds: number;
}

/**
 * The limits, from the environment (read on every call, so a changed value applies at once):
 * sign-in failures per account and per address, unknown API keys per address.
 */
export function throttleRules(): { signInAccount: ThrottleRule; signInAddress: ThrottleRule; unknownKey: ThrottleRule } {
  const e = env();
  return {
    signInAccount: { limit: e.CUSTODIAN_SIGN_IN_ACCOUNT_LIMIT, windowSeconds: e.CUSTODIAN_SIGN_IN_WINDOW_SECONDS },
    signInAddress: { limit: e.CUSTODIAN_SIGN_IN_ADDRESS_LIMIT, windowSeconds: e.CUSTODIAN_SIGN_IN_WINDOW_SECONDS },
    unknownKey: { limit: e.CUSTODIAN_UNKNOWN_KEY_LIMIT, windowSeconds: e.CUSTODIAN_UNKNOWN_KEY_WINDOW_SECONDS },
  };
}

/** A key that names no one in the table: account names and addresses are stored hashed. */
export function throttleKey(kind: string, subject: string): string {
  return `${kind}:${createHash("sha256").update(subject.trim().toLowerCase(), "utf8").digest("hex").slice(0, 32)}`;
}

/** Counts one attempt against `key` and says whether it is within `rule`. */
export async function consumeThrottle(key: string, rule: ThrottleRule): Promise<ThrottleDecision> {
  const [row] = await rawQuery<{ hits: number; remaining: number }>(
    `insert into throttle as t (key, window_start, hits) values ($1, now(), 1)
     on conflict (key) do update set
       window_start = case when t.window_start <= now() - make_interval(secs => $2) then now() else t.window_start end,
       hits = case when t.window_start <= now() - make_interval(secs => $2) then 1 else t.hits + 1 end
     returning hits, extract(epoch from (window_start + make_interval(secs => $2) - now()))::float8 as remaining`,
    [key, rule.windowSeconds],
  );
  if (Math.random() < 0.01) void forgetExpired().catch(() => {});
  const hits = Number(row!.hits);
  return { allowed: hits <= rule.limit, hits, retryAfterSeconds: Math.max(1, Math.ceil(Number(row!.remaining))) };
}

/** Takes back one attempt (a sign-in that succeeded is not held against anyone). */
export async function refundThrottle(key: string): Promise<void> {
  await rawQuery("update throttle set hits = greatest(hits - 1, 0) where key = $1", [key]);
}

/** Windows ended more than a day ago: nothing reads them (no window is longer than a day). */
async function forgetExpired(): Promise<void> {
  await rawQuery("delete from throttle where window_start < now() - interval '1 day'", []);
}

/**
 * The address a request comes from, as the server resolved it from the connection and the trusted
 * proxies (lib/core/client-address.ts): never a header the client wrote itself.
 */
export { clientAddress } from "@/lib/core/client-address";

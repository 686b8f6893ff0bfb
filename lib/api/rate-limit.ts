import { env } from "@/lib/core/env";
import { AppError } from "@/lib/core/errors";
import { consumeThrottle, type ThrottleRule, throttleKey, throttleRules } from "@/lib/server/admin";

/**
 * A token bucket per API key, in this process. Protects the server from one runaway runtime; with
 * several servers each enforces its own share. Requests per minute come from
 * CUSTODIAN_RATE_LIMIT_PER_MINUTE (default 6000).
 */
interface Bucket {
  tokens: number;
  updatedAt: number;
}

const buckets = new Map<string, Bucket>();

function perMinute(): number {
  return env().CUSTODIAN_RATE_LIMIT_PER_MINUTE;
}

export function takeToken(key: string, now = Date.now()): void {
  const capacity = perMinute();
  const refillPerMs = capacity / 60_000;
  const bucket = buckets.get(key) ?? { tokens: capacity, updatedAt: now };
  bucket.tokens = Math.min(capacity, bucket.tokens + (now - bucket.updatedAt) * refillPerMs);
  bucket.updatedAt = now;
  if (bucket.tokens < 1) {
    buckets.set(key, bucket);
    const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerMs / 1000));
    throw new AppError("RATE_LIMITED", `Too many requests for this API key; retry in ${retryAfter} s`, {
      headers: { "Retry-After": String(retryAfter) },
    });
  }
  bucket.tokens -= 1;
  buckets.set(key, bucket);
}

/**
 * Requests with an unknown (or revoked) API key, per address: counted in Postgres (every server
 * sees the same count), answered 429 with Retry-After past the limit. Only a request whose key was
 * not found is counted, so requests with a valid key never pay for it; an address this process has
 * seen refused is answered from memory until its window ends, without touching the database.
 */
export function unknownKeyLimit(): ThrottleRule {
  return throttleRules().unknownKey; // CUSTODIAN_UNKNOWN_KEY_LIMIT and _WINDOW_SECONDS; 30 a minute by default
}

const refusedUntil = new Map<string, number>();
const MAX_REMEMBERED = 10_000;

export async function countUnknownKey(address: string, now = Date.now()): Promise<void> {
  const until = refusedUntil.get(address);
  if (until !== undefined && until > now) throw unknownKeyLimited(Math.ceil((until - now) / 1000));
  const decision = await consumeThrottle(throttleKey("api-key:address", address), unknownKeyLimit());
  if (decision.allowed) return;
  if (refusedUntil.size >= MAX_REMEMBERED) refusedUntil.clear();
  refusedUntil.set(address, now + decision.retryAfterSeconds * 1000);
  throw unknownKeyLimited(decision.retryAfterSeconds);
}

function unknownKeyLimited(retryAfter: number): AppError {
  const seconds = Math.max(1, retryAfter);
  return new AppError("RATE_LIMITED", `Too many requests with unknown API keys from this address; retry in ${seconds} s`, {
    headers: { "Retry-After": String(seconds) },
  });
}

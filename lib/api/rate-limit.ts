import { env } from "@/lib/core/env";
import { AppError } from "@/lib/core/errors";

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

import { APIError, createAuthMiddleware } from "better-auth/api";
import type { BetterAuthOptions } from "better-auth";
import {
  clientAddress,
  consumeThrottle,
  refundThrottle,
  throttleKey,
  throttleRules,
  type ThrottleRule,
} from "@/lib/server/admin";

/**
 * Password guessing is throttled per account and per address, with the counters in Postgres (every
 * server process sees the same counts). Each attempt is counted before the password is checked and
 * given back when it succeeds, so only failures add up, and a burst of concurrent guesses cannot
 * all slip under the limit. Runs as the sign-in library's hooks: the sign-in form and
 * POST /api/auth/sign-in/email are throttled alike. An unknown email is counted like a known one:
 * the answer never tells which.
 *
 * The limits come from the environment (CUSTODIAN_SIGN_IN_ACCOUNT_LIMIT, _ADDRESS_LIMIT and
 * _WINDOW_SECONDS; by default 10 per account and 50 per address in 15 minutes).
 */
export function signInLimits(): { account: ThrottleRule; address: ThrottleRule } {
  const rules = throttleRules();
  return { account: rules.signInAccount, address: rules.signInAddress };
}

const SIGN_IN_PATH = "/sign-in/email";

function keysFor(email: unknown, headers: Headers | undefined) {
  return {
    account: throttleKey("sign-in:account", typeof email === "string" ? email : ""),
    address: throttleKey("sign-in:address", clientAddress(headers ?? new Headers())),
  };
}

function minutes(seconds: number): string {
  const m = Math.ceil(seconds / 60);
  return m <= 1 ? "a minute" : `${m} minutes`;
}

/** Before a password sign-in: count the attempt, refuse it (429 with Retry-After) past a limit. */
export const countSignInAttempt = createAuthMiddleware(async (ctx) => {
  if (ctx.path !== SIGN_IN_PATH) return;
  const keys = keysFor((ctx.body as { email?: unknown } | undefined)?.email, ctx.headers);
  const limits = signInLimits();
  const [account, address] = await Promise.all([
    consumeThrottle(keys.account, limits.account),
    consumeThrottle(keys.address, limits.address),
  ]);
  const refused = [account, address].filter((d) => !d.allowed);
  if (refused.length === 0) return;
  const wait = Math.max(...refused.map((d) => d.retryAfterSeconds));
  throw new APIError(
    "TOO_MANY_REQUESTS",
    { code: "TOO_MANY_SIGN_IN_ATTEMPTS", message: `Too many sign-in attempts. Try again in ${minutes(wait)}.` },
    { "Retry-After": String(wait) },
  );
});

/** After a password sign-in that opened a session: the attempt is not held against anyone. */
export const forgiveSuccessfulSignIn = createAuthMiddleware(async (ctx) => {
  if (ctx.path !== SIGN_IN_PATH || !ctx.context.newSession) return;
  const keys = keysFor((ctx.body as { email?: unknown } | undefined)?.email, ctx.headers);
  await Promise.all([refundThrottle(keys.account), refundThrottle(keys.address)]);
});

/** The sign-in library's own limiter (every /api/auth endpoint, per address), counting in Postgres. */
type RateLimitStorage = NonNullable<NonNullable<BetterAuthOptions["rateLimit"]>["customStorage"]>;

export const postgresRateLimitStorage: RateLimitStorage = {
  async consume(key, rule) {
    const decision = await consumeThrottle(throttleKey("auth-api", key), { limit: rule.max, windowSeconds: rule.window });
    return { allowed: decision.allowed, retryAfter: decision.allowed ? null : decision.retryAfterSeconds };
  },
};

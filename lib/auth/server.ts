import { env } from "@/lib/core/env";
import { randomUUID } from "node:crypto";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { nextCookies } from "better-auth/next-js";
import { CLIENT_ADDRESS_HEADER } from "@/lib/core/client-address";
import { db } from "@/lib/db/client";
import { addressedOrigins } from "./addressed-origin";
import { authSecret } from "./secret";
import { countSignInAttempt, forgiveSuccessfulSignIn, postgresRateLimitStorage } from "./sign-in-throttle";

function createAuth() {
  return betterAuth({
    database: prismaAdapter(db(), { provider: "postgresql" }),
    secret: authSecret(),
    // Unset on purpose by default: the origin is each request's own (see trustedOrigins below).
    baseURL: env().BETTER_AUTH_URL,
    logger: { log: logAuthMessage },
    // Next.js hands route handlers a URL under the name the server listens on (localhost), not the
    // one the browser used: trust the address the request itself was sent to, so signing in works
    // from 127.0.0.1, a LAN address or a proxy's name alike. Other sites' origins stay refused.
    trustedOrigins: (request) => addressedOrigins(request),
    // People are invited by an admin (`npm run custodian -- users create`), never self-registered.
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 10 },
    user: {
      modelName: "user",
      additionalFields: { role: { type: "string", required: false, defaultValue: "VIEWER", input: false } },
    },
    session: { modelName: "authSession", expiresIn: 60 * 60 * 12, updateAge: 60 * 60 },
    account: { modelName: "authAccount" },
    verification: { modelName: "authVerification" },
    // The origin check stays on under test too (the library's default there is off), so the tests
    // see what a served dashboard does.
    // The library's own limiter and its session records read the address the server resolved from
    // the connection and the trusted proxies, not X-Forwarded-For, which any client can write.
    advanced: {
      database: { generateId: () => randomUUID() },
      disableOriginCheck: false,
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    // Counted in Postgres, so every server process enforces the same limits; on in every
    // environment (the library's default is production only). Password guesses are also counted per
    // account and per address by the hooks.
    rateLimit: { enabled: true, window: 60, max: 100, customStorage: postgresRateLimitStorage },
    hooks: { before: countSignInAttempt, after: forgiveSuccessfulSignIn },
    // Room for OIDC: add `genericOAuth` here with the identity provider's issuer and client.
    plugins: [nextCookies()],
  });
}

/**
 * The library's messages, as its default logger prints them, but for its warning that no base URL
 * is set: without BETTER_AUTH_URL, deriving it from the request is this configuration's default
 * (the origins are checked above), not an oversight to warn a newcomer about on every start.
 */
function logAuthMessage(level: "debug" | "info" | "warn" | "error", message: string, ...args: unknown[]): void {
  if (level === "warn" && message.includes("Base URL is not set")) return;
  const write = level === "error" ? console.error : level === "warn" ? console.warn : console.log;
  write(message, ...args);
}

type Auth = ReturnType<typeof createAuth>;
const holder = globalThis as unknown as { custodianAuth?: Auth };

/** The process's auth instance, built on first use (the database is known only at run time). */
export function getAuth(): Auth {
  holder.custodianAuth ??= createAuth();
  return holder.custodianAuth;
}

/**
 * The throttles under forged addresses: floods of unknown API keys and of wrong passwords from one
 * connection, each request naming another client in its forwarding headers, must still be counted
 * against that connection (429); clients behind a trusted proxy are counted apart. Run by the fuzz
 * suite (its slice and the full run) on the server's own stamping of addresses.
 */
import { callRoute, type RouteHandler } from "./call";
import type { FuzzRoute } from "./routes";
import { FUZZ_TRUSTED_PROXY, forgedForwarding } from "./request-generators";
import type { Rng } from "./hostile";

const LIMIT = 5;
const FLOOD = 15;

function handler(routes: FuzzRoute[], pattern: string, method: "GET" | "POST"): RouteHandler {
  const found = routes.find((r) => r.pattern === pattern)?.handlers[method];
  if (!found) throw new Error(`no ${method} ${pattern} among the routes`);
  return found;
}

/** Runs `fn` with the throttles' limits low, so that a flood of FLOOD passes them; restores them after. */
async function withLowLimits<T>(fn: () => Promise<T>): Promise<T> {
  const names = ["CUSTODIAN_UNKNOWN_KEY_LIMIT", "CUSTODIAN_SIGN_IN_ADDRESS_LIMIT"] as const;
  const saved = names.map((name) => process.env[name]);
  for (const name of names) process.env[name] = String(LIMIT);
  try {
    return await fn();
  } finally {
    names.forEach((name, i) => {
      if (saved[i] === undefined) delete process.env[name];
      else process.env[name] = saved[i];
    });
  }
}

/** What failed to hold, one line each (none: every check held), and how many requests were sent. */
export async function probeForgedAddresses(
  routes: FuzzRoute[],
  rng: Rng,
): Promise<{ requests: number; findings: string[]; serverErrors: number }> {
  const sessions = handler(routes, "/api/v1/sessions", "GET");
  const auth = handler(routes, "/api/auth/[...all]", "POST");
  const findings: string[] = [];
  let requests = 0;
  let serverErrors = 0;
  const peer = () => `10.67.${rng.int(0, 255)}.${rng.int(1, 254)}`;
  const count = (statuses: number[]) => {
    requests += statuses.length;
    serverErrors += statuses.filter((s) => s >= 500).length;
    return statuses.filter((s) => s === 429).length;
  };
  await withLowLimits(async () => {
    const keysFrom = peer();
    const keys: number[] = [];
    for (let i = 0; i < FLOOD; i++)
      keys.push(
        (
          await callRoute(sessions, {
            method: "GET",
            path: "/api/v1/sessions",
            key: `cust_forged_${i}`,
            headers: forgedForwarding(rng),
            peer: keysFrom,
          })
        ).status,
      );
    if (count(keys) === 0)
      findings.push(`${FLOOD} unknown keys from ${keysFrom} with forged forwarding headers: never 429 (${keys.join(",")})`);

    const signInFrom = peer();
    const signIns: number[] = [];
    for (let i = 0; i < FLOOD; i++)
      signIns.push(
        (
          await callRoute(auth, {
            path: "/api/auth/sign-in/email",
            headers: { origin: "http://custodian.test", ...forgedForwarding(rng) },
            body: { email: `forged-${i}-${rng.int(0, 1e9)}@example.com`, password: "wrong password" },
            peer: signInFrom,
          })
        ).status,
      );
    if (count(signIns) === 0)
      findings.push(
        `${FLOOD} wrong passwords from ${signInFrom} with forged forwarding headers: never 429 (${signIns.join(",")})`,
      );

    // Behind the trusted proxy, FLOOD clients one request each: none is held up by the others.
    const proxied: number[] = [];
    for (let i = 0; i < FLOOD; i++)
      proxied.push(
        (
          await callRoute(sessions, {
            method: "GET",
            path: "/api/v1/sessions",
            key: "cust_forged_proxied",
            headers: { "x-forwarded-for": peer() },
            peer: FUZZ_TRUSTED_PROXY,
          })
        ).status,
      );
    if (count(proxied) > 0) findings.push(`${FLOOD} clients behind the trusted proxy: throttled together (${proxied.join(",")})`);
  });
  return { requests, findings, serverErrors };
}

import { expect, test } from "@playwright/test";
import { E2E_TRUSTED_PROXY } from "./support/addresses";
import { forgedAddress, loopbackAddress, sendFrom } from "./support/send-from";

// The throttles count per address; a request's address is its connection's own unless that
// connection comes from a trusted proxy (the e2e server trusts E2E_TRUSTED_PROXY).
const SPOOFS = (i: number) => ({
  "x-forwarded-for": forgedAddress(i),
  "x-real-ip": forgedAddress(i + 1),
  "x-custodian-client-address": forgedAddress(i + 2),
});

test("100 unknown API keys from one connection's address get 429, whatever X-Forwarded-For they name", async () => {
  const from = loopbackAddress();
  const statuses: number[] = [];
  for (let i = 0; i < 100; i++) {
    const answer = await sendFrom(from, "/api/v1/sessions", {
      headers: { authorization: `Bearer cust_unknown_${i}`, ...SPOOFS(i) },
    });
    statuses.push(answer.status);
    if (answer.status === 429) {
      expect(Number(answer.headers["retry-after"])).toBeGreaterThan(0);
      expect(JSON.parse(answer.body).error.code).toBe("RATE_LIMITED");
    }
  }
  expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(60);
  expect(statuses.filter((s) => s >= 500)).toEqual([]);
  // Another address is not held up by this one's flood.
  const other = await sendFrom(loopbackAddress(), "/api/v1/sessions", { headers: { authorization: "Bearer cust_unknown_x" } });
  expect(other.status).toBe(401);
});

test("120 wrong passwords from one address are throttled per address, whatever X-Forwarded-For they name", async () => {
  const from = loopbackAddress();
  const statuses: number[] = [];
  for (let i = 0; i < 120; i++) {
    const answer = await sendFrom(from, "/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json", origin: `http://127.0.0.1:${process.env.E2E_PORT}`, ...SPOOFS(i) },
      // A different account each time: only the address can add them up.
      body: JSON.stringify({ email: `nobody-${i}-${from}@example.com`, password: "wrong password" }),
    });
    statuses.push(answer.status);
  }
  expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(60);
  expect(statuses.filter((s) => s >= 500)).toEqual([]);
});

test("through a trusted proxy, each client behind it is counted apart, and the proxy's own forged entries are not", async () => {
  // Forty different clients behind the proxy, one unknown key each: none is throttled.
  const viaProxy = [];
  for (let i = 0; i < 40; i++)
    viaProxy.push(
      await sendFrom(E2E_TRUSTED_PROXY, "/api/v1/sessions", {
        headers: { authorization: "Bearer cust_unknown_proxied", "x-forwarded-for": `198.51.100.${i + 1}` },
      }),
    );
  expect(viaProxy.map((a) => a.status).filter((s) => s !== 401)).toEqual([]);
  // One client behind it sending 40: throttled, though the client prepends forged entries itself.
  const one = [];
  for (let i = 0; i < 40; i++)
    one.push(
      await sendFrom(E2E_TRUSTED_PROXY, "/api/v1/sessions", {
        headers: { authorization: "Bearer cust_unknown_proxied", "x-forwarded-for": `${forgedAddress(i)}, 198.51.100.200` },
      }),
    );
  expect(one.filter((a) => a.status === 429).length).toBeGreaterThan(0);
});

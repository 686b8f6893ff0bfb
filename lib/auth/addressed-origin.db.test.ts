import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createUser } from "@/lib/server/admin";
import { TEST_ACTOR } from "@/lib/server/admin/test-project";
import { addressedOrigins } from "./addressed-origin";
import { getAuth } from "./server";
import { CLIENT_ADDRESS_HEADER } from "@/lib/core/client-address";

const PASSWORD = "correct horse battery";

/** POST /api/auth/sign-in/email as Next.js hands it over: its URL under the server's own name (localhost). */
function signInRequest(email: string, headers: Record<string, string>) {
  const address = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  return new Request("http://localhost:3100/api/auth/sign-in/email", {
    method: "POST",
    // A browser that already holds a cookie for the site: the library checks the Origin of such requests.
    headers: { "content-type": "application/json", [CLIENT_ADDRESS_HEADER]: address, cookie: "theme=dark", ...headers },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
}

describe("signing in from whatever address the dashboard is served at", () => {
  it("the password endpoint accepts the Origin of the address the request was sent to, and refuses another site's", async () => {
    const email = `origin-${randomBytes(4).toString("hex")}@example.com`;
    await createUser({ email, role: "VIEWER", password: PASSWORD }, TEST_ACTOR);
    const handler = getAuth().handler;

    const viaIp = await handler(signInRequest(email, { host: "127.0.0.1:3100", origin: "http://127.0.0.1:3100" }));
    expect(viaIp.status).toBe(200);
    expect(viaIp.headers.get("set-cookie")).toMatch(/session_token=/);

    const viaName = await handler(signInRequest(email, { host: "localhost:3100", origin: "http://localhost:3100" }));
    expect(viaName.status).toBe(200);

    const proxied = await handler(
      signInRequest(email, {
        host: "127.0.0.1:3100",
        "x-forwarded-host": "custodian.example",
        "x-forwarded-proto": "https",
        origin: "https://custodian.example",
      }),
    );
    expect(proxied.status).toBe(200);

    const foreign = await handler(signInRequest(email, { host: "127.0.0.1:3100", origin: "http://evil.example" }));
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get("set-cookie")).toBeNull();
    const otherPort = await handler(signInRequest(email, { host: "127.0.0.1:3100", origin: "http://127.0.0.1:9999" }));
    expect(otherPort.status).toBe(403);
  });

  it("names only the request's own host, under the protocols it came in on", () => {
    const request = (headers: Record<string, string>) => new Request("http://localhost:3000/x", { headers });
    expect(addressedOrigins(request({ host: "127.0.0.1:3000" }))).toEqual(["http://127.0.0.1:3000"]);
    expect(addressedOrigins(request({ host: "a", "x-forwarded-host": "B.example, c", "x-forwarded-proto": "https" }))).toEqual([
      "https://b.example",
      "http://b.example",
    ]);
    expect(addressedOrigins(request({ host: "bad host/with path" }))).toEqual([]);
    expect(addressedOrigins(undefined)).toEqual([]);
  });
});

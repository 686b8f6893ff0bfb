import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createUser } from "@/lib/server/admin";
import { TEST_ACTOR } from "@/lib/server/admin/test-project";
import { signInWithPassword, WRONG_CREDENTIALS } from "./sign-in";
import { CLIENT_ADDRESS_HEADER } from "@/lib/core/client-address";

const VARIABLES = [
  "CUSTODIAN_SIGN_IN_ACCOUNT_LIMIT",
  "CUSTODIAN_SIGN_IN_ADDRESS_LIMIT",
  "CUSTODIAN_SIGN_IN_WINDOW_SECONDS",
] as const;
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));

afterEach(() => {
  for (const name of VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

function from(address: string) {
  return new Headers({ [CLIENT_ADDRESS_HEADER]: address, origin: "http://custodian.test", host: "custodian.test" });
}
const randomAddress = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join(".")}`;
const TOO_MANY = /Too many sign-in attempts\. Try again in (a minute|\d+ minutes)\./;

describe("sign-in limits from the environment", () => {
  it("CUSTODIAN_SIGN_IN_ACCOUNT_LIMIT locks an account after that many failures", async () => {
    process.env.CUSTODIAN_SIGN_IN_ACCOUNT_LIMIT = "3";
    const email = `limit-${randomBytes(4).toString("hex")}@example.com`;
    await createUser({ email, role: "VIEWER", password: "correct horse battery" }, TEST_ACTOR);
    for (let i = 0; i < 3; i++)
      expect(await signInWithPassword(email, `guess ${i}`, from(randomAddress()))).toEqual({
        ok: false,
        error: WRONG_CREDENTIALS,
      });
    const locked = await signInWithPassword(email, "correct horse battery", from(randomAddress()));
    expect(!locked.ok && locked.error).toMatch(TOO_MANY);
  });

  it("CUSTODIAN_SIGN_IN_ADDRESS_LIMIT and _WINDOW_SECONDS refuse an address after that many failures, for that window", async () => {
    process.env.CUSTODIAN_SIGN_IN_ADDRESS_LIMIT = "2";
    process.env.CUSTODIAN_SIGN_IN_WINDOW_SECONDS = "7200";
    const address = randomAddress();
    for (let i = 0; i < 2; i++) {
      const email = `nobody-${randomBytes(4).toString("hex")}@example.com`;
      expect(await signInWithPassword(email, "wrong", from(address))).toEqual({ ok: false, error: WRONG_CREDENTIALS });
    }
    const refused = await signInWithPassword("someone@example.com", "wrong", from(address));
    // The wait is the window's: two hours, not the default quarter.
    expect(!refused.ok && refused.error).toMatch(/Try again in 1[12]\d minutes\./);
    expect(await signInWithPassword("someone@example.com", "wrong", from(randomAddress()))).toEqual({
      ok: false,
      error: WRONG_CREDENTIALS,
    });
  });
});

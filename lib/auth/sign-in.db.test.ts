import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createUser, throttleKey } from "@/lib/server/admin";
import { TEST_ACTOR } from "@/lib/server/admin/test-project";
import { signInWithPassword, WRONG_CREDENTIALS } from "./sign-in";
import { signInLimits } from "./sign-in-throttle";
import { CLIENT_ADDRESS_HEADER } from "@/lib/core/client-address";

const PASSWORD = "correct horse battery";

async function person() {
  const email = `signin-${randomBytes(4).toString("hex")}@example.com`;
  await createUser({ email, role: "VIEWER", password: PASSWORD }, TEST_ACTOR);
  return email;
}

/** A request from its own address, so tests do not share the per-address count. */
function from(address = `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join(".")}`) {
  return new Headers({ [CLIENT_ADDRESS_HEADER]: address, origin: "http://custodian.test", host: "custodian.test" });
}

const TOO_MANY = /Too many sign-in attempts\. Try again in/;

describe("password sign-in", () => {
  it("a wrong password and an unknown email get the same clean answer", async () => {
    const email = await person();
    expect(await signInWithPassword(email, "not the password", from())).toEqual({ ok: false, error: WRONG_CREDENTIALS });
    expect(await signInWithPassword(`nobody-${email}`, PASSWORD, from())).toEqual({ ok: false, error: WRONG_CREDENTIALS });
    expect(await signInWithPassword("not an email", PASSWORD, from())).toEqual({ ok: false, error: WRONG_CREDENTIALS });
  });

  it("the library's refusal thrown by another copy of the library (another bundle) is still a clean answer, not a 500", async () => {
    class APIError extends Error {
      override name = "APIError";
      statusCode = 401;
      status = "UNAUTHORIZED";
      body = { code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" };
    }
    const foreign = async () => {
      throw new APIError("Invalid email or password");
    };
    expect(await signInWithPassword("a@example.com", "x", from(), foreign)).toEqual({ ok: false, error: WRONG_CREDENTIALS });
    const broken = async () => {
      throw new Error("connection refused");
    };
    await expect(signInWithPassword("a@example.com", "x", from(), broken)).rejects.toThrow(/connection refused/);
  });

  it("successful sign-ins are not held against the account or the address", async () => {
    const email = await person();
    const address = from();
    for (let i = 0; i <= signInLimits().account.limit; i++)
      expect(await signInWithPassword(email, PASSWORD, address)).toEqual({ ok: true, userId: expect.any(String) });
    const [row] = await db().$queryRaw<
      Array<{ hits: number }>
    >`select hits from throttle where key = ${throttleKey("sign-in:account", email)}`;
    expect(row!.hits).toBe(0);
  }, 120_000);

  it("an account is locked after too many failures from any addresses, even for the right password, and counts live in Postgres", async () => {
    const email = await person();
    for (let i = 0; i < signInLimits().account.limit; i++) {
      expect((await signInWithPassword(email, `guess ${i}`, from())).ok).toBe(false);
    }
    const locked = await signInWithPassword(email, PASSWORD, from());
    expect(locked.ok).toBe(false);
    expect(!locked.ok && locked.error).toMatch(TOO_MANY);
    // Another person is not affected.
    const other = await person();
    expect(await signInWithPassword(other, "wrong again", from())).toEqual({ ok: false, error: WRONG_CREDENTIALS });
    const rows = await db().$queryRaw<
      Array<{ hits: number }>
    >`select hits from throttle where key like 'sign-in:account:%' order by hits desc limit 1`;
    expect(rows[0]!.hits).toBeGreaterThan(signInLimits().account.limit);
  });

  it("an address is refused after too many failures over many accounts; other addresses are not", async () => {
    const address = "192.0.2.77";
    const guesses = Array.from(
      { length: signInLimits().address.limit },
      (_, i) => `guess-${i}-${randomBytes(3).toString("hex")}@example.com`,
    );
    const outcomes = await Promise.all(guesses.map((email) => signInWithPassword(email, "wrong password", from(address))));
    expect(outcomes.filter((o) => o.ok)).toEqual([]);
    const email = await person();
    const refused = await signInWithPassword(email, "wrong password", from(address));
    expect(!refused.ok && refused.error).toMatch(TOO_MANY);
    expect(await signInWithPassword(email, "wrong password", from())).toEqual({ ok: false, error: WRONG_CREDENTIALS });
  }, 120_000);

  it("concurrent guesses cannot all slip under the account's limit", async () => {
    const email = await person();
    const outcomes = await Promise.all(
      Array.from({ length: signInLimits().account.limit * 2 }, (_, i) => signInWithPassword(email, `burst ${i}`, from())),
    );
    const throttled = outcomes.filter((o) => !o.ok && TOO_MANY.test(o.error)).length;
    expect(throttled).toBe(signInLimits().account.limit);
  }, 120_000);
});

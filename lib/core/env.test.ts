import { afterEach, describe, expect, it } from "vitest";
import { EnvError, env, parseEnv } from "./env";

describe("environment", () => {
  const saved = process.env.CUSTODIAN_RATE_LIMIT_PER_MINUTE;
  afterEach(() => {
    if (saved === undefined) delete process.env.CUSTODIAN_RATE_LIMIT_PER_MINUTE;
    else process.env.CUSTODIAN_RATE_LIMIT_PER_MINUTE = saved;
  });

  it("fills defaults and treats an empty value as unset", () => {
    const read = parseEnv({ PORT: "", DATABASE_URL: "", CUSTODIAN_DEMO: "1" });
    expect(read).toMatchObject({ PORT: 3000, HOST: "127.0.0.1", CUSTODIAN_SWEEP_INTERVAL_MINUTES: 60, CUSTODIAN_DEMO: "1" });
    expect(read.DATABASE_URL).toBeUndefined();
    expect(read).toMatchObject({
      CUSTODIAN_SIGN_IN_ACCOUNT_LIMIT: 10,
      CUSTODIAN_SIGN_IN_ADDRESS_LIMIT: 50,
      CUSTODIAN_SIGN_IN_WINDOW_SECONDS: 900,
      CUSTODIAN_UNKNOWN_KEY_LIMIT: 30,
      CUSTODIAN_UNKNOWN_KEY_WINDOW_SECONDS: 60,
    });
    expect(parseEnv({ PORT: "8080", CUSTODIAN_SWEEP_INTERVAL_MINUTES: "0" })).toMatchObject({
      PORT: 8080,
      CUSTODIAN_SWEEP_INTERVAL_MINUTES: 0,
    });
  });

  it.each([
    ["PORT", "70000"],
    ["PORT", "http"],
    ["DATABASE_URL", "mysql://db/custodian"],
    ["CUSTODIAN_DEMO", "yes"],
    ["CUSTODIAN_SWEEP_INTERVAL_MINUTES", "-5"],
    ["BETTER_AUTH_URL", "not a url"],
    ["BETTER_AUTH_SECRET", "short"],
    ["NODE_ENV", "staging"],
    ["CUSTODIAN_SIGN_IN_ACCOUNT_LIMIT", "0"],
    ["CUSTODIAN_SIGN_IN_ACCOUNT_LIMIT", "10001"],
    ["CUSTODIAN_SIGN_IN_ADDRESS_LIMIT", "1.5"],
    ["CUSTODIAN_SIGN_IN_WINDOW_SECONDS", "86401"],
    ["CUSTODIAN_UNKNOWN_KEY_LIMIT", "-1"],
    ["CUSTODIAN_UNKNOWN_KEY_WINDOW_SECONDS", "a minute"],
  ])("stops on %s=%s with one line naming the variable", (name, value) => {
    let thrown: unknown;
    try {
      parseEnv({ [name]: value });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(EnvError);
    const error = thrown as EnvError;
    expect(error.variable).toBe(name);
    expect(error.message.startsWith(`${name}=${JSON.stringify(value)} is not valid: `)).toBe(true);
    expect(error.message).not.toContain("\n");
  });

  it("sees a variable set after the first read", () => {
    process.env.CUSTODIAN_RATE_LIMIT_PER_MINUTE = "7";
    expect(env().CUSTODIAN_RATE_LIMIT_PER_MINUTE).toBe(7);
    process.env.CUSTODIAN_RATE_LIMIT_PER_MINUTE = "9";
    expect(env().CUSTODIAN_RATE_LIMIT_PER_MINUTE).toBe(9);
  });
});

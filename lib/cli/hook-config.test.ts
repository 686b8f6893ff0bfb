/** Where hooks and the stdio MCP relay find the server: the environment first, then the config file. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configPath, DEFAULT_LEDGER_LIMIT, DEFAULT_TIMEOUT_MS, loadConnectionConfig } from "./hook-config";

/** With an environment of only these variables (no NODE_ENV, which the process type insists on). */
const load = (vars: Record<string, string>) => loadConnectionConfig(vars as NodeJS.ProcessEnv);
const pathFor = (vars: Record<string, string>) => configPath(vars as NodeJS.ProcessEnv);
const dir = mkdtempSync(join(tmpdir(), "custodian-hook-config-"));
const file = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const fromFile = {
  url: "http://file.test:3000",
  key: "cst_file",
  failClosed: true,
  timeoutMs: 2500,
  ledgerLimit: 12,
  stateDir: "/var/lib/custodian-hooks",
};

describe("loadConnectionConfig", () => {
  it("reads the config file named by CUSTODIAN_CONFIG", () => {
    const config = load({ CUSTODIAN_CONFIG: file("all.json", JSON.stringify(fromFile)) });
    expect(config).toEqual(fromFile);
  });

  it("lets each environment variable win over the file", () => {
    const config = load({
      CUSTODIAN_CONFIG: file("all.json", JSON.stringify(fromFile)),
      CUSTODIAN_URL: " http://env.test ",
      CUSTODIAN_KEY: "cst_env",
      CUSTODIAN_FAIL_CLOSED: "0",
      CUSTODIAN_HOOK_TIMEOUT_MS: "700",
      CUSTODIAN_LEDGER_LIMIT: "3",
      CUSTODIAN_STATE_DIR: "/tmp/state",
    });
    expect(config).toEqual({
      url: "http://env.test",
      key: "cst_env",
      failClosed: false,
      timeoutMs: 700,
      ledgerLimit: 3,
      stateDir: "/tmp/state",
    });
  });

  it("falls back to the defaults for a missing file, a file that is not JSON or not an object, and unusable values", () => {
    const defaults = {
      url: undefined,
      key: undefined,
      failClosed: false,
      timeoutMs: DEFAULT_TIMEOUT_MS,
      ledgerLimit: DEFAULT_LEDGER_LIMIT,
      stateDir: join(homedir(), ".local", "state", "custodian", "hooks"),
    };
    expect(load({ CUSTODIAN_CONFIG: join(dir, "none.json") })).toEqual(defaults);
    expect(load({ CUSTODIAN_CONFIG: file("broken.json", "{ url: ") })).toEqual(defaults);
    expect(load({ CUSTODIAN_CONFIG: file("list.json", "[1, 2]") })).toEqual(defaults);
    const unusable = file("unusable.json", JSON.stringify({ url: "  ", key: 7, timeoutMs: -5, ledgerLimit: "many" }));
    expect(load({ CUSTODIAN_CONFIG: unusable, CUSTODIAN_HOOK_TIMEOUT_MS: "soon" })).toEqual(defaults);
  });

  it("reads fail-closed as a yes/no word or a boolean, and whole positive numbers from strings", () => {
    const at = (vars: Record<string, string>) => load({ CUSTODIAN_CONFIG: join(dir, "none.json"), ...vars });
    for (const yes of ["1", "true", "YES", "on"]) expect(at({ CUSTODIAN_FAIL_CLOSED: yes }).failClosed).toBe(true);
    for (const no of ["0", "false", "off", "nope"]) expect(at({ CUSTODIAN_FAIL_CLOSED: no }).failClosed).toBe(false);
    expect(at({ CUSTODIAN_FAIL_CLOSED: "" }).failClosed).toBe(false);
    const closedFile = file("closed.json", JSON.stringify({ failClosed: "yes" }));
    expect(load({ CUSTODIAN_CONFIG: closedFile }).failClosed).toBe(true);
    expect(at({ CUSTODIAN_HOOK_TIMEOUT_MS: "1500.9" }).timeoutMs).toBe(1500);
  });

  it("finds the file under XDG_CONFIG_HOME, else ~/.config", () => {
    expect(pathFor({ XDG_CONFIG_HOME: "/xdg" })).toBe("/xdg/custodian/config.json");
    expect(pathFor({})).toBe(join(homedir(), ".config", "custodian", "config.json"));
    expect(pathFor({ CUSTODIAN_CONFIG: "/etc/custodian.json", XDG_CONFIG_HOME: "/xdg" })).toBe("/etc/custodian.json");
    const xdg = mkdtempSync(join(tmpdir(), "custodian-xdg-"));
    mkdirSync(join(xdg, "custodian"));
    writeFileSync(join(xdg, "custodian", "config.json"), JSON.stringify({ url: "http://xdg.test" }));
    expect(load({ XDG_CONFIG_HOME: xdg }).url).toBe("http://xdg.test");
  });
});

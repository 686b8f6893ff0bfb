/**
 * The launcher reads the fail-closed setting itself, without loading the project (it must answer
 * when the bundle cannot load): it must read it exactly as hook-config.ts does, for every way the
 * setting can be given, mistyped or missing.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConnectionConfig } from "./hook-config";
import { projectRoot } from "./hook-paths";

const dir = mkdtempSync(join(tmpdir(), "custodian-hook-launch-"));
const launcher = join(projectRoot(), "lib/cli/hook-launch.mjs");
const gone = join(dir, "gone", "hook.mjs");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Case {
  /** CUSTODIAN_FAIL_CLOSED, when set. */
  flag?: string;
  /** The config file's text, when there is one. */
  file?: string;
  /** Found through XDG_CONFIG_HOME rather than CUSTODIAN_CONFIG. */
  xdg?: boolean;
}

const CASES: Case[] = [
  {},
  ...["1", "true", "TRUE", "yes", "On"].map((flag) => ({ flag })),
  ...["0", "false", "no", "off", "banana", " 1"].map((flag) => ({ flag })),
  { flag: "", file: '{"failClosed": true}' },
  { flag: "0", file: '{"failClosed": true}' },
  { flag: "1", file: '{"failClosed": false}' },
  { file: '{"failClosed": true}' },
  { file: '{"failClosed": "yes"}' },
  { file: '{"failClosed": "nope"}' },
  { file: '{"failClosed": 1}' },
  { file: '{"failClosed": ""}' },
  { file: "[true]" },
  { file: "null" },
  { file: '"failClosed"' },
  { file: "{not json" },
  { file: "" },
  { file: '{"failClosed": true}', xdg: true },
  { flag: "no", file: '{"failClosed": true}', xdg: true },
];

/** The environment a hook would run in for `c`, its config file written where `c` says. */
function environment(c: Case, index: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NODE_ENV: "test", PATH: process.env.PATH, HOME: join(dir, `home-${index}`) };
  if (c.flag !== undefined) env.CUSTODIAN_FAIL_CLOSED = c.flag;
  const xdgHome = join(dir, `xdg-${index}`);
  const path = c.xdg ? join(xdgHome, "custodian", "config.json") : join(dir, `config-${index}.json`);
  if (c.xdg) env.XDG_CONFIG_HOME = xdgHome;
  else env.CUSTODIAN_CONFIG = path;
  if (c.file !== undefined) {
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, c.file);
  }
  return env;
}

describe("the launcher's fail-closed reading", () => {
  it.each(CASES.map((c, i) => [JSON.stringify(c), c, i] as const))("agrees with hook-config for %s", (_, c, index) => {
    const env = environment(c, index);
    const expected = loadConnectionConfig(env).failClosed;
    const run = spawnSync(process.execPath, [launcher, gone, "hook", "claude-code", "pre-compact"], { env, encoding: "utf8" });
    expect({ blocks: run.status === 2, stderr: run.stderr.split("\n")[0] }).toEqual({
      blocks: expected,
      stderr: expect.stringMatching(expected ? /^Custodian blocked compaction:/ : /^custodian: .*fail-open\)$/),
    });
  });

  it("covers both answers", () => {
    const answers = new Set(CASES.map((c, i) => loadConnectionConfig(environment(c, i)).failClosed));
    expect(answers).toEqual(new Set([true, false]));
  });
});

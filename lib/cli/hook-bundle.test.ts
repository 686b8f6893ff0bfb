/**
 * The hooks as the runtime starts them: one plain JavaScript file run by node, no TypeScript
 * compiled at start, answering exactly as the TypeScript entry does; the installer points the
 * runtime at it when it was built, and at tsx when it was not.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildHookBundle } from "./hook-build";
import { defaultCommand } from "./hook-install";
import { hookBundlePath, projectRoot } from "./hook-paths";

const dir = mkdtempSync(join(tmpdir(), "custodian-hook-bundle-"));
const bundle = join(dir, "hook.mjs");

beforeAll(async () => {
  await buildHookBundle(bundle);
}, 60_000);

const payload = JSON.stringify({
  session_id: "s",
  transcript_path: null,
  cwd: dir,
  hook_event_name: "PreCompact",
  trigger: "auto",
});
const unreachable = {
  ...process.env,
  CUSTODIAN_URL: "http://127.0.0.1:9",
  CUSTODIAN_KEY: "k",
  CUSTODIAN_CONFIG: join(dir, "none.json"),
};

describe("the hook bundle", () => {
  it("is one ES module that plain node runs, importing nothing of the project's TypeScript", () => {
    const text = readFileSync(bundle, "utf8");
    expect(text).not.toMatch(/from\s+["'][^"']*\.ts["']/);
    expect(text).not.toMatch(/from\s+["']@\//);
  });

  it("answers as the runtime expects: fail-closed blocks with exit 2 and one line, fail-open continues", () => {
    const run = (extra: Record<string, string>) =>
      spawnSync(process.execPath, [bundle, "hook", "claude-code", "pre-compact"], {
        cwd: dir,
        input: payload,
        env: { ...unreachable, ...extra },
        encoding: "utf8",
      });
    const closed = run({ CUSTODIAN_FAIL_CLOSED: "1" });
    expect(closed.status).toBe(2);
    expect(closed.stdout).toBe("");
    expect(closed.stderr.trim().split("\n")).toHaveLength(1);
    expect(closed.stderr).toMatch(/^Custodian blocked compaction: Custodian server unreachable at http:\/\/127\.0\.0\.1:9/);
    const open = run({ CUSTODIAN_FAIL_CLOSED: "0" });
    expect(open.status).toBe(0);
    expect(open.stdout).toBe("");
    expect(open.stderr).toMatch(/compaction continues: fail-open/);
  });

  it("codex pre-compact blocks its own way from the bundle (continue false, exit 0)", () => {
    const run = spawnSync(process.execPath, [bundle, "hook", "codex", "pre-compact"], {
      cwd: dir,
      input: payload,
      env: { ...unreachable, CUSTODIAN_FAIL_CLOSED: "1" },
      encoding: "utf8",
    });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ continue: false });
  });
});

describe("the installed command", () => {
  it("runs the bundle under node when it was built", () => {
    expect(defaultCommand(projectRoot(), bundle)).toBe(`${process.execPath} ${bundle}`);
  });

  it("falls back to tsx on the TypeScript entry when there is no bundle", () => {
    const root = projectRoot();
    const command = defaultCommand(root, join(dir, "missing.mjs"));
    expect(command).toContain(join(root, "node_modules/.bin/tsx"));
    expect(command).toContain(join(root, "lib/cli/hook-main.ts"));
  });

  it("finds the bundle where the build writes it, under the checkout's git-ignored node_modules", () => {
    expect(hookBundlePath()).toBe(join(projectRoot(), "node_modules", ".cache", "custodian", "hook.mjs"));
    expect(readFileSync(join(projectRoot(), "package.json"), "utf8")).toContain('"build:hook"');
  });
});

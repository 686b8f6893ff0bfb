/**
 * The hooks as the runtime starts them: plain JavaScript run by node (an entry, and the chunks only
 * some hooks load), no TypeScript compiled at start, answering exactly as the TypeScript entry
 * does; the installer points the runtime at it when it was built, and at tsx when it was not.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildHookBundle, HOOK_CHUNKS } from "./hook-build";
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

/** The modules node loads for `file` before running it: it and its static imports, transitively. */
function loaded(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const [, path] of readFileSync(file, "utf8").matchAll(/(?:from|import)\s*["'](\.{1,2}\/[^"']+)["']/g))
    loaded(join(dirname(file), path!), seen);
  return seen;
}

/** What a hook of this runtime compiles: the entry's modules, and its importer's chunk with its own. */
function compiledFor(importer: "claude-code" | "codex"): string {
  const chunk = readdirSync(join(dir, HOOK_CHUNKS)).find((f) => f.startsWith(`${importer}-`));
  expect(chunk).toBeDefined();
  const files = loaded(join(dir, HOOK_CHUNKS, chunk!), loaded(bundle));
  return [...files].map((f) => readFileSync(f, "utf8")).join("\n");
}

describe("the hook bundle", () => {
  it("is ES modules that plain node runs, importing nothing of the project's TypeScript", () => {
    for (const file of [bundle, ...readdirSync(join(dir, HOOK_CHUNKS)).map((f) => join(dir, HOOK_CHUNKS, f))]) {
      const text = readFileSync(file, "utf8");
      expect(text).not.toMatch(/from\s+["'][^"']*\.ts["']/);
      expect(text).not.toMatch(/from\s+["']@\//);
    }
  });

  it("compiles only what a hook runs: its runtime's importer, and zod (English only) for Claude Code alone", () => {
    const entry = [...loaded(bundle)].map((f) => readFileSync(f, "utf8")).join("\n");
    expect(entry).not.toMatch(/\/\/ lib\/importers\/(claude-code|codex)\//);
    expect(entry).not.toContain("// lib/cli/hook-install.ts");
    expect(entry).not.toContain("// node_modules/zod/");
    const claudeCode = compiledFor("claude-code");
    expect(claudeCode).toContain("// lib/importers/claude-code/index.ts");
    expect(claudeCode).not.toContain("// lib/importers/codex/");
    expect([...claudeCode.matchAll(/\/\/ node_modules\/zod\/v4\/locales\/(\S+)/g)].map((m) => m[1])).toEqual(["en.js"]);
    const codex = compiledFor("codex");
    expect(codex).toContain("// lib/importers/codex/index.ts");
    expect(codex).not.toContain("// lib/importers/claude-code/");
    expect(codex).not.toContain("// node_modules/zod/");
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

describe("the hook's time limit", () => {
  /** The hook with its stdin left open, as a runtime that never finishes writing the payload. */
  const hanging = (hook: string[], extra: Record<string, string>) =>
    new Promise<{ status: number | null; stdout: string; stderr: string; ms: number }>((resolve) => {
      const started = Date.now();
      const child = spawn(process.execPath, [bundle, "hook", ...hook], {
        cwd: dir,
        env: { ...unreachable, CUSTODIAN_HOOK_TIMEOUT_MS: "300", ...extra },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      child.on("close", (status) => resolve({ status, stdout, stderr, ms: Date.now() - started }));
      child.stdin.write("{"); // part of a payload, and never the end of it
    });

  it("answers at the limit when stdin never ends: Codex fail-closed still gets its block answer", async () => {
    const codex = await hanging(["codex", "pre-compact"], { CUSTODIAN_FAIL_CLOSED: "1" });
    expect(codex.status).toBe(0);
    expect(JSON.parse(codex.stdout)).toEqual({
      continue: false,
      stopReason: expect.stringMatching(/^Custodian blocked compaction: no hook input on stdin, or no answer, within 300 ms/),
    });
    expect(codex.ms).toBeLessThan(10_000);
    const claude = await hanging(["claude-code", "pre-compact"], { CUSTODIAN_FAIL_CLOSED: "1" });
    expect([claude.status, claude.stdout]).toEqual([2, ""]);
    expect(claude.stderr).toMatch(/^Custodian blocked compaction: no hook input/);
    const open = await hanging(["codex", "pre-compact"], { CUSTODIAN_FAIL_CLOSED: "0" });
    expect([open.status, open.stdout]).toEqual([0, ""]);
    expect(open.stderr).toMatch(/compaction continues: fail-open/);
  }, 30_000);
});

describe("hook install from the command line", () => {
  const project = join(dir, "project");
  const settings = join(project, ".claude", "settings.json");
  const mine = { hooks: { PreCompact: [{ matcher: "", hooks: [{ type: "command", command: "echo mine" }] }] }, model: "x" };
  const install = (...args: string[]) =>
    spawnSync(process.execPath, [bundle, "hook", "install", ...args], {
      cwd: project,
      env: { ...unreachable, HOME: join(dir, "home") },
      encoding: "utf8",
    });

  it("--dry-run prints the change and writes nothing; then installs beside the hooks already there, once", () => {
    mkdirSync(join(project, ".claude"), { recursive: true });
    const before = `${JSON.stringify(mine, null, 2)}\n`;
    writeFileSync(settings, before);

    const dry = install("claude-code", "--dry-run");
    expect(dry.status).toBe(0);
    expect(dry.stdout.startsWith(`Would update ${settings}:\n--- before\n${before}+++ after\n`)).toBe(true);
    const shown = JSON.parse(dry.stdout.slice(dry.stdout.indexOf("+++ after\n") + "+++ after\n".length));
    expect(shown.model).toBe("x");
    // The server's address is known (CUSTODIAN_URL): Claude Code posts PreCompact to it, as an HTTP hook.
    expect(
      shown.hooks.PreCompact.flatMap((g: { hooks: Array<{ command?: string; url?: string }> }) =>
        g.hooks.map((h) => h.command ?? h.url),
      ),
    ).toEqual(["echo mine", "http://127.0.0.1:9/api/v1/hooks/claude-code"]);
    expect(dry.stderr).toContain("Claude Code sends the key from its environment's CUSTODIAN_KEY.");
    expect(shown.hooks.SessionStart).toEqual([
      {
        matcher: "compact",
        hooks: [expect.objectContaining({ command: expect.stringMatching(/ hook claude-code session-start$/) })],
      },
    ]);
    expect(Object.keys(shown.hooks).sort()).toEqual([
      "PostCompact",
      "PreCompact",
      "SessionEnd",
      "SessionStart",
      "Stop",
      "SubagentStop",
    ]);
    expect(readFileSync(settings, "utf8")).toBe(before);

    const real = install("claude-code");
    expect(real.stdout.startsWith(`Updated ${settings}:`)).toBe(true);
    expect(JSON.parse(readFileSync(settings, "utf8"))).toEqual(shown);
    expect(install("claude-code").stdout).toBe(`${settings}: the Custodian hooks are already installed.\n`);
  });

  it("--user shows the change to the user's settings; a runtime it does not know is one line", () => {
    const user = install("codex", "--user", "--dry-run");
    expect(user.stdout).toMatch(/\nCodex runs a project's hooks only when it trusts the project.*\/hooks/);
    expect(user.stdout).toMatch(
      new RegExp(`^Would update ${join(dir, "home", ".codex", "hooks.json")}:\n--- before\n\\(no file\\)\n`),
    );
    const unknown = install("emacs");
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr).toBe("custodian: hook install needs a runtime: claude-code or codex\n");
  });
});

describe("the installed command", () => {
  const root = projectRoot();
  const launcher = join(root, "lib/cli/hook-launch.mjs");
  /** The installed command as the runtime runs it: through a shell, the payload on stdin. */
  const runInstalled = (command: string, hook: string, extra: Record<string, string>) =>
    spawnSync("sh", ["-c", `${command} hook ${hook}`], {
      cwd: dir,
      input: payload,
      env: { ...unreachable, ...extra },
      encoding: "utf8",
    });

  it("runs the bundle under node, through the launcher, when it was built", () => {
    const command = defaultCommand(root, bundle);
    expect(command).toBe(`${process.execPath} ${launcher} ${bundle}`);
    const blocked = runInstalled(command, "codex pre-compact", { CUSTODIAN_FAIL_CLOSED: "1" });
    expect(blocked.status).toBe(0);
    expect(JSON.parse(blocked.stdout)).toMatchObject({ continue: false });
    expect(blocked.stderr).toMatch(/^Custodian blocked compaction: Custodian server unreachable/);
  });

  it("answers in one line, no stack trace, when the bundle it points at is gone", () => {
    const gone = join(dir, "gone", "hook.mjs");
    const command = `${process.execPath} ${launcher} ${gone}`;
    const open = runInstalled(command, "claude-code pre-compact", { CUSTODIAN_FAIL_CLOSED: "0" });
    expect(open.status).toBe(0);
    expect(open.stdout).toBe("");
    expect(open.stderr).toBe(
      `custodian: the hook bundle ${gone} is missing (run npm run build:hook in the Custodian checkout) (compaction continues: fail-open)\n`,
    );
    const closed = runInstalled(command, "claude-code pre-compact", { CUSTODIAN_FAIL_CLOSED: "1" });
    expect(closed.status).toBe(2);
    expect(closed.stderr.trim().split("\n")).toHaveLength(1);
    expect(closed.stderr).toMatch(/^Custodian blocked compaction: the hook bundle .* is missing/);
    const codex = runInstalled(command, "codex pre-compact", { CUSTODIAN_FAIL_CLOSED: "1" });
    expect(codex.status).toBe(0);
    expect(JSON.parse(codex.stdout)).toMatchObject({ continue: false, stopReason: expect.stringContaining("is missing") });
    const after = runInstalled(command, "codex post-compact", { CUSTODIAN_FAIL_CLOSED: "1" });
    expect([after.status, after.stdout]).toEqual([0, ""]);
    for (const run of [open, closed, codex, after]) expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it("falls back to tsx on the TypeScript entry when there is no bundle", () => {
    const command = defaultCommand(root, join(dir, "missing.mjs"));
    expect(command).toContain(join(root, "node_modules/.bin/tsx"));
    expect(command).toContain(join(root, "lib/cli/hook-main.ts"));
  });

  it("finds the bundle where the build writes it, under the checkout's git-ignored node_modules", () => {
    expect(hookBundlePath()).toBe(join(projectRoot(), "node_modules", ".cache", "custodian", "hook.mjs"));
    expect(readFileSync(join(projectRoot(), "package.json"), "utf8")).toContain('"build:hook"');
  });
});

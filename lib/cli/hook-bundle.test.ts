/**
 * The hooks as the runtime starts them: plain JavaScript run by node (an entry, and the chunks only
 * some hooks load), no TypeScript compiled at start, answering exactly as the TypeScript entry
 * does; the installer points the runtime at it when it was built, and at tsx when it was not.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
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
    expect(entry).not.toMatch(/\/\/ lib\/importers\/(claude-code|codex)\.ts/);
    expect(entry).not.toContain("// lib/cli/hook-install.ts");
    expect(entry).not.toContain("// node_modules/zod/");
    const claudeCode = compiledFor("claude-code");
    expect(claudeCode).toContain("// lib/importers/claude-code.ts");
    expect(claudeCode).not.toContain("// lib/importers/codex.ts");
    expect([...claudeCode.matchAll(/\/\/ node_modules\/zod\/v4\/locales\/(\S+)/g)].map((m) => m[1])).toEqual(["en.js"]);
    const codex = compiledFor("codex");
    expect(codex).toContain("// lib/importers/codex.ts");
    expect(codex).not.toContain("// lib/importers/claude-code.ts");
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

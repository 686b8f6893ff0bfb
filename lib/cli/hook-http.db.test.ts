/**
 * `custodian hook install` with the server's address: Claude Code's HTTP hooks for the events that
 * allow them, a process hook for SessionStart; and those settings, sent exactly as Claude Code sends
 * an HTTP hook (the event's JSON posted to the hook's url, its headers with the variables it allows
 * filled from the environment), capture the session through the route.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST } from "@/app/api/v1/hooks/claude-code/route";
import { db } from "@/lib/db/client";
import { listenWith, type RouteListener } from "@/lib/fuzz/listen";
import { importTranscript } from "@/lib/importers";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { runHookCommand } from "./hook-command";
import { installHooks } from "./hook-install";

interface Handler {
  type: string;
  command?: string;
  url?: string;
  headers?: Record<string, string>;
  allowedEnvVars?: string[];
  timeout?: number;
}
type Settings = { hooks: Record<string, Array<{ matcher?: string; hooks: Handler[] }>> };

const root = mkdtempSync(join(tmpdir(), "custodian-hook-http-"));
let listener: RouteListener;
let rootsBefore: string | undefined;

beforeAll(async () => {
  rootsBefore = process.env.CUSTODIAN_HOOK_TRANSCRIPT_ROOTS;
  process.env.CUSTODIAN_HOOK_TRANSCRIPT_ROOTS = join(root, "projects");
  listener = await listenWith(POST);
});

afterAll(async () => {
  if (rootsBefore === undefined) delete process.env.CUSTODIAN_HOOK_TRANSCRIPT_ROOTS;
  else process.env.CUSTODIAN_HOOK_TRANSCRIPT_ROOTS = rootsBefore;
  await listener.close();
});

const handlersOf = (settings: Settings, event: string) => settings.hooks[event]!.flatMap((g) => g.hooks);

/** Claude Code's interpolation of a header: $VAR and ${VAR} of the allowed variables; any other is emptied. */
function headersAsSent(handler: Handler, environment: Record<string, string>): Record<string, string> {
  const allowed = new Set(handler.allowedEnvVars ?? []);
  return Object.fromEntries(
    Object.entries(handler.headers ?? {}).map(([name, value]) => [
      name,
      value.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a: string | undefined, b: string | undefined) => {
        const variable = (a ?? b)!;
        return allowed.has(variable) ? (environment[variable] ?? "") : "";
      }),
    ]),
  );
}

/** One event, as Claude Code sends it to an HTTP hook of these settings. */
async function send(settings: Settings, event: string, input: object, environment: Record<string, string>) {
  const [handler] = handlersOf(settings, event);
  expect(handler?.type).toBe("http");
  const response = await fetch(handler!.url!, {
    method: "POST",
    headers: { ...headersAsSent(handler!, environment), "content-type": "application/json" },
    body: JSON.stringify({ ...input, hook_event_name: event }),
  });
  const text = await response.text();
  return { status: response.status, text };
}

describe("hook install with HTTP hooks", () => {
  it("writes HTTP hooks where Claude Code allows them and a process hook for SessionStart, replacing its own hooks in place", () => {
    const dir = mkdtempSync(join(tmpdir(), "custodian-install-http-"));
    const path = join(dir, ".claude", "settings.json");
    mkdirSync(join(dir, ".claude"), { recursive: true });
    writeFileSync(path, JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "notify.sh" }] }] } }));
    installHooks("claude-code", { user: false, dryRun: false, cwd: dir, command: "custodian" });
    const http = { url: "http://127.0.0.1:3000", failClosed: true };
    const dry = installHooks("claude-code", { user: false, dryRun: true, cwd: dir, command: "custodian", http });
    expect(dry.written).toBe(false);
    const done = installHooks("claude-code", { user: false, dryRun: false, cwd: dir, command: "custodian", http });
    const after = JSON.parse(readFileSync(path, "utf8")) as Settings;
    expect(JSON.parse(dry.after)).toEqual(after); // --dry-run shows exactly what it writes
    expect(done.written).toBe(true);
    const common = {
      type: "http",
      headers: { Authorization: "Bearer $CUSTODIAN_KEY" },
      allowedEnvVars: ["CUSTODIAN_KEY"],
      timeout: 15,
    };
    expect(handlersOf(after, "PreCompact")).toEqual([
      { ...common, url: "http://127.0.0.1:3000/api/v1/hooks/claude-code?failClosed=1" },
    ]);
    for (const event of ["PostCompact", "SubagentStop", "SessionEnd"])
      expect(handlersOf(after, event)).toEqual([{ ...common, url: "http://127.0.0.1:3000/api/v1/hooks/claude-code" }]);
    // The process hook it installed before is replaced, not doubled; the user's own hook stays.
    expect(handlersOf(after, "Stop")).toEqual([
      { type: "command", command: "notify.sh" },
      { ...common, url: "http://127.0.0.1:3000/api/v1/hooks/claude-code" },
    ]);
    expect(handlersOf(after, "SessionStart")).toEqual([
      { type: "command", command: "custodian hook claude-code session-start", timeout: 15 },
    ]);
    expect(JSON.stringify(after)).not.toContain("cst_");
    // Again changes nothing; --process puts the process hooks back in their place.
    expect(installHooks("claude-code", { user: false, dryRun: false, cwd: dir, command: "custodian", http }).written).toBe(false);
    installHooks("claude-code", { user: false, dryRun: false, cwd: dir, command: "custodian" });
    const back = JSON.parse(readFileSync(path, "utf8")) as Settings;
    expect(handlersOf(back, "Stop")).toEqual([
      { type: "command", command: "notify.sh" },
      { type: "command", command: "custodian hook claude-code stop", timeout: 15 },
    ]);
  });

  it("--dry-run prints the HTTP hooks it would write, and what they need, and writes nothing", async () => {
    const lines: string[] = [];
    const log = vi.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
    const advice = vi.spyOn(console, "error").mockImplementation((line: string) => void lines.push(line));
    const project = mkdtempSync(join(tmpdir(), "custodian-install-dry-"));
    const cwd = vi.spyOn(process, "cwd").mockReturnValue(project);
    const saved = { url: process.env.CUSTODIAN_URL, key: process.env.CUSTODIAN_KEY, config: process.env.CUSTODIAN_CONFIG };
    try {
      process.env.CUSTODIAN_CONFIG = join(root, "no-config.json");
      delete process.env.CUSTODIAN_URL;
      delete process.env.CUSTODIAN_KEY;
      await runHookCommand(["install", "claude-code", "--dry-run", "--url", "http://127.0.0.1:3999", "--command", "custodian"]);
    } finally {
      log.mockRestore();
      advice.mockRestore();
      cwd.mockRestore();
      for (const [name, value] of Object.entries({
        CUSTODIAN_URL: saved.url,
        CUSTODIAN_KEY: saved.key,
        CUSTODIAN_CONFIG: saved.config,
      }))
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
    }
    const output = lines.join("\n");
    expect(output).toMatch(/^Would update .*\.claude\/settings\.json:/);
    expect(existsSync(join(project, ".claude"))).toBe(false);
    expect(output).toContain('"url": "http://127.0.0.1:3999/api/v1/hooks/claude-code"');
    expect(output).toContain('"command": "custodian hook claude-code session-start"');
    expect(output).toContain("Set CUSTODIAN_KEY in the environment Claude Code runs in");
  });

  it("the installed hooks, sent as Claude Code sends them, capture the session: Stop at once, PreCompact with the gate", async () => {
    const project = await makeTestProject("hook-http-installed");
    const key = (await createApiKey(project.id, "hooks", "OPERATOR", { type: "SYSTEM", label: "test" })).key;
    const dir = mkdtempSync(join(tmpdir(), "custodian-install-http-run-"));
    installHooks("claude-code", {
      user: false,
      dryRun: false,
      cwd: dir,
      command: "custodian",
      http: { url: listener.url, failClosed: true },
    });
    const settings = JSON.parse(readFileSync(join(dir, ".claude", "settings.json"), "utf8")) as Settings;

    const bytes = readFileSync("lib/importers/fixtures/claude-code/spotter-tool-heavy.jsonl");
    const parsed = importTranscript(bytes, "claude-code").sessions[0]!;
    const folder = join(root, "projects", "-home-dev-installed");
    mkdirSync(folder, { recursive: true });
    const transcript = join(folder, `${parsed.externalId}.jsonl`);
    const lines = bytes.toString("utf8").split("\n");
    writeFileSync(transcript, `${lines.slice(0, 10).join("\n")}\n`);
    const input = {
      session_id: parsed.externalId,
      transcript_path: transcript,
      cwd: "/home/dev/installed",
      permission_mode: "default",
    };

    expect(await send(settings, "Stop", { ...input, stop_hook_active: false }, { CUSTODIAN_KEY: key })).toEqual({
      status: 204,
      text: "",
    });
    writeFileSync(transcript, bytes);
    expect(
      await send(settings, "PreCompact", { ...input, trigger: "auto", custom_instructions: "" }, { CUSTODIAN_KEY: key }),
    ).toEqual({
      status: 204,
      text: "",
    });
    const session = await db().session.findUniqueOrThrow({
      where: { projectId_externalId: { projectId: project.id, externalId: parsed.externalId } },
    });
    expect(await db().span.count({ where: { sessionId: session.id, seq: { not: null } } })).toBe(parsed.spans.length);

    // Without the variable in Claude Code's environment the header is "Bearer ": refused, and Claude Code goes on.
    expect((await send(settings, "Stop", input, {})).status).toBe(401);
  });
});

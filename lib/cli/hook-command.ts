/**
 * `custodian hook ...`: the runtime hooks and their installer. Loaded on its own by ./hook-main.ts
 * (what the installed hooks run: no database module is loaded), and by main.ts.
 */
import { parseArgs } from "node:util";
import { AppError } from "@/lib/core/errors";
import { failureAnswer, HOOK_RUNTIMES, type HookAnswer, type HookRuntime, readStdin, runHook } from "./hook";
import { loadConnectionConfig } from "./hook-config";

export const HOOK_USAGE = `  hook claude-code pre-compact|post-compact|session-start|stop|subagent-stop|session-end
  hook codex pre-compact|post-compact|session-start|stop|subagent-stop
                      Runtime hooks: read the runtime's hook JSON on stdin (CUSTODIAN_URL,
                      CUSTODIAN_KEY, CUSTODIAN_FAIL_CLOSED=1, CUSTODIAN_HOOK_TIMEOUT_MS,
                      CUSTODIAN_LEDGER_LIMIT, or ~/.config/custodian/config.json).
  hook install claude-code|codex [--user] [--dry-run] [--url <server>] [--process]
                      Merge all of them into the project's (or with --user, your) runtime settings.
                      Claude Code gets HTTP hooks for PreCompact, PostCompact, Stop, SubagentStop
                      and SessionEnd when the server's address is known (--url, CUSTODIAN_URL or
                      the config file), sending $CUSTODIAN_KEY; --process installs process hooks only.
`;

/** What Claude Code's HTTP hooks need, said where they are installed. */
function httpNotes(url: string, keyInEnvironment: boolean): string[] {
  return [
    `HTTP hooks post to ${url}: the server reads the transcripts from its own disk, so it must run on the machine where Claude Code writes them (install with --process otherwise).`,
    keyInEnvironment
      ? "Claude Code sends the key from its environment's CUSTODIAN_KEY."
      : "Set CUSTODIAN_KEY in the environment Claude Code runs in: the hooks send it (the key is never written into the settings).",
  ];
}

/** Codex skips hooks it was not told to trust, silently: say so where they are installed. */
const CODEX_TRUST =
  "Codex runs a project's hooks only when it trusts the project, and a new or changed hook only once you trust it: " +
  "open /hooks in Codex to review and trust these.";

export async function runHookCommand(args: string[]): Promise<void> {
  const [first, second, ...rest] = args;
  if (first === "install") {
    if (!second || !(HOOK_RUNTIMES as readonly string[]).includes(second))
      throw new AppError("VALIDATION_FAILED", "hook install needs a runtime: claude-code or codex");
    // Loaded here: the hooks themselves (a new process at every compaction) never need it.
    const { defaultCommand, installHooks } = await import("./hook-install");
    const { values } = parseArgs({
      args: rest,
      options: {
        user: { type: "boolean" },
        "dry-run": { type: "boolean" },
        command: { type: "string" },
        url: { type: "string" },
        process: { type: "boolean" },
      },
    });
    const config = loadConnectionConfig();
    const url = values.url ?? config.url;
    if (url !== undefined && !URL.canParse(url))
      throw new AppError("VALIDATION_FAILED", `--url must be the server's address, e.g. http://127.0.0.1:3000 (not ${url})`);
    const http = second === "claude-code" && !values.process && url ? { url, failClosed: config.failClosed } : undefined;
    const result = installHooks(second as HookRuntime, {
      user: values.user ?? false,
      dryRun: values["dry-run"] ?? false,
      command: values.command ?? defaultCommand(),
      http,
    });
    const notes = http
      ? httpNotes(http.url, Boolean(process.env.CUSTODIAN_KEY))
      : second === "claude-code" && !values.process
        ? ["No server address (--url, CUSTODIAN_URL or the config file): process hooks only."]
        : [];
    if (result.before === result.after) {
      console.log(`${result.path}: the Custodian hooks are already installed.`);
    } else {
      console.log(`${result.written ? "Updated" : "Would update"} ${result.path}:`);
      console.log(`--- before\n${result.before || "(no file)\n"}+++ after\n${result.after}`);
      if (second === "codex") console.log(CODEX_TRUST);
    }
    // Advice on stderr: stdout is the change itself.
    for (const note of notes) console.error(note);
    return;
  }
  const config = loadConnectionConfig();
  // Backstop: a hook never holds the agent past its limit, even if its input never ends (stdin
  // left open); it answers then as any failure is answered, Codex's fail-closed block included.
  const backstop = setTimeout(() => {
    const reason = `no hook input on stdin, or no answer, within ${config.timeoutMs} ms`;
    answer(failureAnswer(first ?? "", second ?? "", reason, config));
    process.exit();
  }, config.timeoutMs + 250);
  backstop.unref();
  const stdin = await readStdin();
  const result = await runHook(first ?? "", second ?? "", stdin, config);
  clearTimeout(backstop);
  answer(result);
}

function answer(result: HookAnswer): void {
  if (result.stdout) process.stdout.write(result.stdout);
  if (result.stderr) process.stderr.write(result.stderr);
  process.exitCode = result.exitCode;
}

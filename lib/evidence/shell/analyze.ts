/**
 * Shell analysis: turns a command line into atoms. Every simple command becomes a COMMAND atom
 * (carrying its main effect when it mutates), every path it names a PATH atom (carrying the
 * effect when it is written, deleted, moved...), packages and services TOOL_ARG atoms. Wrappers
 * (sudo, env, nohup, timeout...) are looked through; sudo adds PRIVILEGE_ESCALATION on its own
 * COMMAND atom. `cd` moves the working directory for the commands after it.
 */
import { looksLikePath, normalizePath } from "../atoms/paths";
import { scanText } from "../atoms/scan";
import type { Text } from "../atoms/text";
import { isSinkPath } from "./commands/files";
import { isProbe } from "./commands/interpreters";
import { handlerFor, unknownCommand } from "./commands/registry";
import { emit, emitPath } from "./emit";
import type { CommandInput, ShellEnv } from "./env";
import { tokenize, type Redirect, type Word } from "./tokenize";

export { primaryFinding } from "./emit";
import type { CommandCall, CommandResult, Finding, StdinSource } from "./types";

export type { CommandInput, ShellEnv } from "./env";

const MAX_DEPTH = 8;
/**
 * Scripts are tokenized up to this many bytes (a command line is rarely longer; a megabyte of
 * shell is a file written through a heredoc, whose body the generic scan still covers).
 */
const MAX_SCRIPT = 1024 * 1024;
const WRITE_OPS = new Set([">", ">>", ">|", "&>", "&>>", "<>"]);

/** Analyses a script; returns the effects of all its commands (their atoms are already emitted). */
export function analyzeScript(t: Text, env: ShellEnv, scanned: boolean): Finding[] {
  if (t.s.length > MAX_SCRIPT) {
    if (!scanned) scanText(t, env.sink, env.ctx, "data");
    return analyzeScript(t.sub(0, MAX_SCRIPT), env, true);
  }
  const script = tokenize(t);
  const bodies = script.heredocs.filter((h) => h.b > h.a).map((h) => [h.a, h.b] as const);
  if (!scanned)
    scanText(
      t,
      env.sink,
      env.ctx,
      "shell",
      bodies.sort((x, y) => x[0] - y[0]),
    );
  const consumed = new Set<object>();
  const findings: Finding[] = [];
  const cmds = script.commands;
  for (let k = 0; k < cmds.length; k++) {
    const cmd = cmds[k]!;
    const prev = k > 0 && cmd.pipedFrom ? cmds[k - 1]! : null;
    const heredocRedirect = [...cmd.redirects].reverse().find((r) => r.heredoc || r.op === "<<<");
    let stdin: StdinSource | null = null;
    if (heredocRedirect?.heredoc) {
      const h = heredocRedirect.heredoc;
      stdin = { kind: "heredoc", text: t.sub(Math.max(h.a, 0), Math.max(h.b, h.a, 0)), consume: () => consumed.add(h) };
    } else if (heredocRedirect?.target) stdin = { kind: "herestring", word: heredocRedirect.target };
    else if (prev) stdin = { kind: "pipe", literal: pipeLiteral(prev.words, prev.redirects, t) };
    findings.push(
      ...analyzeCommand(
        { words: cmd.words, redirects: cmd.redirects, rangeText: t, a: cmd.a, b: cmd.b, stdin, pipedTo: cmd.pipedTo },
        env,
      ),
    );
  }
  for (const h of script.heredocs) {
    if (!consumed.has(h) && h.b > h.a) scanText(t.sub(h.a, h.b), env.sink, env.ctx, "data");
  }
  return findings;
}

/** What `echo ... |` or `cat <<EOF |` feeds the next command, when it is literal. */
function pipeLiteral(words: Word[], redirects: Redirect[], t: Text): string | null {
  const name = words[0]?.value;
  if (name === "echo" || name === "printf")
    return words
      .slice(1)
      .map((w) => w.value)
      .join(" ");
  const h = redirects.find((r) => r.heredoc)?.heredoc;
  if (name === "cat" && h && words.length === 1) return t.s.slice(h.a, h.b);
  return null;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const KEYWORDS = new Set([
  "if",
  "then",
  "else",
  "elif",
  "do",
  "while",
  "until",
  "!",
  "{",
  "time",
  "fi",
  "done",
  "esac",
  "}",
  "in",
]);
const BLOCK_HEADERS = new Set(["for", "case", "select", "function"]);
const SUDO_WITH_VALUE = /^-[ugCDhprtTU]$/;

/** Analyses one simple command and emits its atoms; returns its findings (effects only). */
export function analyzeCommand(cmd: CommandInput, env: ShellEnv): Finding[] {
  const words = [...cmd.words];
  const extraReads: Word[] = [];
  const extraConsumed: Word[] = [];
  const findings: Finding[] = [];

  // Leading assignments and keywords.
  while (words.length > 0) {
    const w = words[0]!;
    if (!w.quoted && KEYWORDS.has(w.value)) words.shift();
    else if (ASSIGNMENT.test(w.value)) {
      extraConsumed.push(words.shift()!);
      const eq = w.value.indexOf("=");
      if (looksLikePath(w.value.slice(eq + 1))) emitPath(w, eq + 1, env);
    } else break;
  }
  if (words.length > 0 && !words[0]!.quoted && BLOCK_HEADERS.has(words[0]!.value)) return [];

  // Wrappers: sudo/doas (privilege), env, nohup, nice, timeout, stdbuf, exec, command...
  let privilege: { a: number; b: number } | null = null;
  for (;;) {
    const w = words[0];
    if (!w) break;
    const name = basename(w.value);
    if (name === "sudo" || name === "doas" || name === "run0" || name === "pkexec") {
      let i = 1;
      while (i < words.length && words[i]!.value.startsWith("-")) {
        if (words[i]!.value === "--") {
          i++;
          break;
        }
        i += SUDO_WITH_VALUE.test(words[i]!.value) ? 2 : 1;
      }
      const last = words[Math.min(i, words.length) - 1]!;
      if (privilege === null) privilege = { a: w.a, b: last.b };
      words.splice(0, i);
      continue;
    }
    if (name === "su" || name === "runuser") {
      const ci = words.findIndex((x) => x.value === "-c" || x.value === "--command");
      const script = ci >= 0 ? words[ci + 1] : undefined;
      const userOpt = words.findIndex((x) => x.value === "-u");
      if (name === "runuser" && userOpt >= 0 && ci < 0) {
        const dd = words.findIndex((x) => x.value === "--");
        words.splice(0, dd >= 0 ? dd + 1 : userOpt + 2);
        continue;
      }
      // The escalation itself is "su - root", not the command it runs.
      const upTo = ci > 0 ? words[ci - 1]! : words[words.length - 1]!;
      if (privilege === null) privilege = { a: w.a, b: upTo.b };
      findings.push(...(script ? nested(script.text(), env, true) : []));
      words.length = 0;
      break;
    }
    if (name === "env") {
      let i = 1;
      while (i < words.length && (words[i]!.value.startsWith("-") || ASSIGNMENT.test(words[i]!.value))) {
        i += /^-[uCS]$/.test(words[i]!.value) ? 2 : 1;
      }
      if (i >= words.length) break; // plain `env` prints the environment
      extraConsumed.push(...words.slice(0, i));
      words.splice(0, i);
      continue;
    }
    const skip = wrapperArity(name, words);
    if (skip > 0 && skip < words.length) {
      extraConsumed.push(...words.slice(0, skip));
      words.splice(0, skip);
      continue;
    }
    break;
  }

  let result: CommandResult = { findings: [] };
  let pendingCwd: string | null = null as string | null;
  const cmdWord = words[0];
  if (cmdWord) {
    const raw = cmdWord.value;
    const isInitScript = /\/(?:init\.d|rc\.d)\/[^/]+$/.test(raw);
    const name = isInitScript ? "init.d" : basename(raw);
    const args = words.slice(1);
    const handler = isInitScript
      ? handlerFor("service", false)
      : (handlerFor(name, env.agentCommands) ?? (raw.includes("/") ? handlerFor("source", false) : null) ?? unknownCommand);
    const call = new Call(name, cmdWord, args, cmd, env);
    result = isProbe(args) && !isInitScript ? { findings: [] } : handler!(call);
    pendingCwd = call.pendingCwd;
    if (raw.includes("/") && !isInitScript) extraReads.push(cmdWord);
    else extraConsumed.push(cmdWord);
  }

  // Redirections: a file written by > or >> is a write whatever the command.
  for (const r of cmd.redirects) {
    if (!r.target) continue;
    if (WRITE_OPS.has(r.op) && !isSinkPath(r.target.value))
      findings.push({ effect: "FILE_WRITE", rule: "shell.redirect", targets: [r.target] });
    else if (r.op === "<") extraReads.push(r.target);
    else extraConsumed.push(r.target);
  }
  findings.unshift(...result.findings);
  if (privilege !== null) findings.push({ effect: "PRIVILEGE_ESCALATION", rule: "shell.sudo" });

  emit(cmd, env, findings, privilege, result, extraReads, extraConsumed, words);
  if (pendingCwd !== null) env.ctx.cwd = pendingCwd;
  return findings.map(({ effect, rule }) => ({ effect, rule }));
}

/** The command as its handler sees it (a class: no closures per command). */
class Call implements CommandCall {
  pendingCwd: string | null = null;
  readonly stdin: StdinSource | null;
  readonly pipedTo: boolean;
  readonly agentCommands: boolean;

  constructor(
    readonly name: string,
    readonly word: Word,
    readonly args: Word[],
    private readonly cmd: CommandInput,
    private readonly env: ShellEnv,
  ) {
    this.stdin = cmd.stdin;
    this.pipedTo = cmd.pipedTo;
    this.agentCommands = env.agentCommands;
  }

  nested(t: Text, scanned = true): Finding[] {
    return nested(t, this.env, scanned);
  }

  sub(words: Word[]): CommandResult {
    return sub(words, this.cmd, this.env);
  }

  chdir(path: string): void {
    this.pendingCwd = normalizePath(path, this.env.ctx.cwd, this.env.ctx.home);
  }

  withArgs(name: string, args: Word[]): CommandCall {
    const c = new Call(name, this.word, args, this.cmd, this.env);
    return c;
  }
}

/** How many leading words a pass-through wrapper takes (0 when `name` is not one). */
function wrapperArity(name: string, words: Word[]): number {
  const opts = (withValue: RegExp, positional = 0) => {
    let i = 1;
    while (i < words.length && words[i]!.value.startsWith("-") && words[i]!.value !== "--")
      i += withValue.test(words[i]!.value) ? 2 : 1;
    if (words[i]?.value === "--") i++;
    return i + positional;
  };
  switch (name) {
    case "nohup":
    case "builtin":
    case "setsid":
    case "unbuffer":
    case "caffeinate":
      return opts(/^$/);
    case "exec":
      return opts(/^-a$/);
    case "command":
      return words.some((w) => w.value === "-v" || w.value === "-V") ? 0 : opts(/^$/);
    case "nice":
      return opts(/^-n$/);
    case "ionice":
      return opts(/^-[cnp]$/);
    case "timeout":
      return opts(/^-[sk]$/, 1);
    case "stdbuf":
      return opts(/^-[ioe]$/);
    case "chroot":
      return opts(/^--(?:userspec|groups)$/, 1);
    case "taskset":
      return opts(/^$/, 1);
    case "time":
      return opts(/^-[fo]$/);
    default:
      return 0;
  }
}

function nested(t: Text, env: ShellEnv, scanned: boolean): Finding[] {
  if (env.depth >= MAX_DEPTH) return [{ effect: "SHELL_MUTATION", rule: "shell.runs-code" }];
  return analyzeScript(t, { ...env, ctx: { ...env.ctx }, depth: env.depth + 1 }, scanned);
}

function sub(words: Word[], parent: CommandInput, env: ShellEnv): CommandResult {
  if (words.length === 0) return { findings: [] };
  const first = words[0]!;
  const last = words[words.length - 1]!;
  const located = first.a >= 0 && last.b >= 0;
  const findings = analyzeCommand(
    {
      words,
      redirects: [],
      rangeText: parent.rangeText,
      a: located ? first.a : -1,
      b: located ? last.b : -1,
      stdin: null,
      pipedTo: false,
    },
    { ...env, depth: env.depth + 1 },
  );
  return { findings, consumed: words };
}

function basename(v: string): string {
  const i = v.lastIndexOf("/");
  return i >= 0 ? v.slice(i + 1) : v;
}

/**
 * Effects known only from a runtime's hints (tool name, arguments) when the body does not
 * contain them: a runtime may report `toolName: "Bash", toolInput: {command: "rm -rf build"}`
 * with a body that is just a rendering. The hints still say what the call did; they just cannot
 * be cited as bytes, so they yield reasons, never atoms.
 */
import { AtomSink } from "./atoms/sink";
import { Text } from "./atoms/text";
import { analyzeCommand, analyzeScript } from "./shell/analyze";
import { sqlWrites } from "./shell/commands/db";
import { wordOfText, type Word } from "./shell/tokenize";
import type { Finding } from "./shell/types";
import { isEscalationValue, isStdinPoll } from "./tool-arg-values";
import { KIND_EFFECT, toolKnowledge } from "./tools";
import type { SpanInput } from "./types";
import { stringToBinary } from "./atoms/bytes";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "TRACE"]);

export function hintFindings(input: SpanInput): Finding[] {
  if (input.toolName === undefined) return [];
  const k = toolKnowledge(input.toolName, input.toolAnnotations);
  const args = (
    input.toolInput !== null && typeof input.toolInput === "object" && !Array.isArray(input.toolInput) ? input.toolInput : {}
  ) as Record<string, unknown>;
  const pick = (names: readonly string[] | undefined) => (names ?? []).map((n) => args[n]).find((v) => v !== undefined);

  const escalation: Finding[] = (k.escalationArgs ?? []).some((n) => isEscalationValue(args[n]))
    ? [{ effect: "PRIVILEGE_ESCALATION", rule: "tool.escalation" }]
    : [];
  switch (k.kind) {
    case "read":
    case "internal":
      return [];
    case "shell": {
      const cmd = pick(k.commandArgs);
      if (typeof cmd === "string") return [...escalation, ...scratch(cmd, (t, env) => analyzeScript(t, env, true))];
      if (Array.isArray(cmd) && cmd.every((x) => typeof x === "string")) return [...escalation, ...scratchArgv(cmd as string[])];
      return [...escalation, { effect: "SHELL_MUTATION", rule: "shell.unknown-command" }];
    }
    case "process":
      if (isStdinPoll(k, (n) => args[n])) return [];
      return [{ effect: KIND_EFFECT.process!.effect, rule: KIND_EFFECT.process!.rule }];
    case "editor": {
      const sub = k.editorCommandArg ? args[k.editorCommandArg] : undefined;
      if (typeof sub === "string" && (k.readOnlyCommands ?? []).includes(sub)) return [];
      return [{ effect: "FILE_WRITE", rule: k.rule ?? "tool.edit" }];
    }
    case "http": {
      const m = pick(k.methodArgs);
      const method = typeof m === "string" ? m.toUpperCase() : pick(k.bodyArgs) !== undefined ? "POST" : "GET";
      return SAFE_METHODS.has(method) ? [] : [{ effect: "NETWORK_MUTATION", rule: "tool.http" }];
    }
    case "sql": {
      const sql = pick(k.sqlArgs);
      return typeof sql === "string" && sqlWrites(sql) ? [{ effect: "DB_WRITE", rule: "tool.sql" }] : [];
    }
    default: {
      const base = KIND_EFFECT[k.kind];
      const deletes: Finding[] = (k.deleteArgs ?? []).some((n) => args[n] !== undefined)
        ? [{ effect: "FILE_DELETE", rule: "tool.delete" }]
        : [];
      return base ? [{ effect: base.effect, rule: k.rule ?? base.rule }, ...deletes] : deletes;
    }
  }
}

/** Runs the shell analysis over a string that is not in the body, discarding its atoms. */
function scratch(cmd: string, run: (t: Text, env: Parameters<typeof analyzeScript>[1]) => Finding[]): Finding[] {
  const bin = stringToBinary(cmd);
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  const sink = new AtomSink(bytes, bin, false);
  return run(Text.contiguous(bin, 0), { sink, ctx: { home: "/" }, agentCommands: false, depth: 0 });
}

function scratchArgv(argv: string[]): Finding[] {
  return scratch(argv.join("\u0000"), (t, env) => {
    const words: Word[] = [];
    let at = 0;
    for (const part of argv) {
      const bin = stringToBinary(part);
      const sub = t.sub(at, at + bin.length);
      words.push(wordOfText(sub));
      at += bin.length + 1;
    }
    return analyzeCommand({ words, redirects: [], rangeText: t, a: -1, b: -1, stdin: null, pipedTo: false }, env);
  });
}

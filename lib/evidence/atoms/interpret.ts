/**
 * Interpreting one tool call: its name becomes a TOOL_CALL atom, each argument a TOOL_ARG atom,
 * and tool knowledge decides what the arguments mean: which are paths written or read, which
 * is a shell command (analysed), a patch, file content (data), a URL and method, SQL. Targets
 * of a mutation carry its effect; so does the TOOL_CALL atom (the call's main effect).
 */
import { AGENT_COMMANDS } from "../shell/commands/agent-cli";
import { sqlWrites } from "../shell/commands/db";
import { analyzeCommand, analyzeScript, primaryFinding, type ShellEnv } from "../shell/analyze";
import { wordOfText, type Word } from "../shell/tokenize";
import type { Finding } from "../shell/types";
import { patchTargets, stripDiffPrefix } from "../patch";
import { isEscalationValue, isStdinPoll } from "../tool-arg-values";
import { KIND_EFFECT, toolKnowledge, type ToolKnowledge } from "../tools";
import type { Atom, SideEffectKind, SpanInput } from "../types";
import type { ArgSite, CallSite } from "./calls";
import type { JNode } from "./json";
import { normalizePath } from "./paths";
import { scanText, type ScanContext, type ScanMode } from "./scan";
import { normalizeUrl } from "./shapes";
import { valueOf, type AtomExtras, type AtomSink } from "./sink";
import type { Text } from "./text";
import { walkJson } from "./walk";

export interface CallEnv {
  sink: AtomSink;
  ctx: ScanContext;
  input: SpanInput;
  /** The whole scanned body (contiguous): coordinates for ranges that span several arguments. */
  root: Text;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "TRACE"]);

/** Interprets a call and emits its atoms; returns its effects (for the TOOL_CALL atom and callers). */
export function interpretCall(site: CallSite, env: CallEnv): Finding[] {
  if (site.commandLine) return interpretCommandLine(site.commandLine, env);
  const k = toolKnowledge(site.name, env.input.toolAnnotations);
  const findings: Finding[] = [];
  const ctx: ScanContext = { ...env.ctx };
  const has = (list: readonly string[] | undefined, name: string) => list?.includes(name);

  // The working directory first: it anchors every relative path of the call.
  for (const a of site.args) {
    if (!has(k.cwdArgs, a.name)) continue;
    const t = stringOf(a);
    const v = t ? valueOf(t.s) : null;
    if (v) ctx.cwd = normalizePath(v, ctx.cwd, ctx.home);
  }

  const base = KIND_EFFECT[k.kind];
  let mutates = base !== undefined && k.kind !== "patch";
  if (k.kind === "editor") {
    const cmdArg = site.args.find((a) => a.name === k.editorCommandArg);
    const sub = cmdArg ? stringOf(cmdArg) : null;
    if (sub && (k.readOnlyCommands ?? []).includes(sub.s)) mutates = false;
  }
  // A process tool that writes nothing to the process only reads its output.
  if (isStdinPoll(k, (n) => argValue(site.args.find((a) => a.name === n)))) mutates = false;
  const method = httpMethod(site, k);
  const httpMutation = k.kind === "http" && !SAFE_METHODS.has(method);
  const rule = k.rule ?? base?.rule ?? "tool.unknown";
  const effect: SideEffectKind | undefined = base?.effect;
  const firstAtom = env.sink.atoms.length;

  for (const a of site.args) {
    let targetExtras: AtomExtras | undefined =
      mutates && effect && has(k.pathArgs, a.name) && !has(k.readArgs, a.name) ? { effect, rule } : undefined;
    if (mutates && has(k.deleteArgs, a.name)) targetExtras = { effect: "FILE_DELETE", rule: "tool.delete" };
    if (has(k.sqlArgs, a.name)) {
      // The statement is what writes: its argument carries DB_WRITE.
      const t = stringOf(a);
      if (t && sqlWrites(t.s)) targetExtras = { effect: "DB_WRITE", rule: "tool.sql" };
    }
    if (has(k.escalationArgs, a.name) && isEscalationValue(argValue(a))) {
      targetExtras = { effect: "PRIVILEGE_ESCALATION", rule: "tool.escalation" };
      findings.push({ effect: "PRIVILEGE_ESCALATION", rule: "tool.escalation" });
    }
    emitToolArg(a, env.sink, targetExtras);

    if (has(k.pathArgs, a.name) || has(k.deleteArgs, a.name) || has(k.readArgs, a.name) || has(k.cwdArgs, a.name)) {
      for (const t of stringsOf(a)) emitPath(t, ctx, env.sink, targetExtras);
      if (targetExtras) findings.push({ effect: targetExtras.effect!, rule: targetExtras.rule ?? rule });
    } else if (has(k.commandArgs, a.name)) {
      findings.push(...analyzeCommandArg(a, env.sink, ctx, env.root));
    } else if (has(k.patchArgs, a.name)) {
      const t = stringOf(a);
      if (t) findings.push(...applyPatchText(t, ctx, env.sink));
    } else if (has(k.urlArgs, a.name)) {
      const t = stringOf(a);
      const v = t ? valueOf(t.s) : null;
      if (t && v && /^[a-z][a-z0-9+.-]*:\/\//i.test(v)) {
        env.sink.add(
          "URL",
          t,
          0,
          t.s.length,
          normalizeUrl(v),
          httpMutation ? { effect: "NETWORK_MUTATION", rule: "tool.http" } : undefined,
        );
      } else scanArg(a, env.sink, ctx, "prose");
    } else if (has(k.sqlArgs, a.name)) {
      if (targetExtras) findings.push({ effect: "DB_WRITE", rule: "tool.sql" });
      scanArg(a, env.sink, ctx, "data");
    } else if (has(k.contentArgs, a.name)) {
      scanArg(a, env.sink, ctx, "data");
    } else {
      scanArg(a, env.sink, ctx, "prose");
    }
  }

  if (mutates && effect && !findings.some((f) => f.effect === effect)) findings.push({ effect, rule });
  if (httpMutation) findings.push({ effect: "NETWORK_MUTATION", rule: "tool.http" });
  if (k.kind === "patch" && findings.length === 0) findings.push({ effect: "FILE_WRITE", rule: "tool.patch" });

  if (site.nameText) {
    const primary = primaryFinding(findings);
    env.sink.add(
      "TOOL_CALL",
      site.nameText,
      0,
      site.nameText.s.length,
      site.name,
      primary ? { effect: primary.effect, rule: primary.rule } : undefined,
    );
  }
  carryEffects(findings, env.sink.atoms, firstAtom);
  // A call whose body holds neither its name nor an argument (Codex's "{}"): its effect goes on the
  // whole body, so it is stored with the span and a question can cite it or be blocked by it.
  const primary = primaryFinding(findings);
  if (primary && env.sink.atoms.length === firstAtom && env.root.s.trim() !== "")
    env.sink.add("TOOL_CALL", env.root, 0, env.root.s.length, site.name, { effect: primary.effect, rule: primary.rule });
  return findings;
}

/**
 * Every effect of a call must sit on one of its atoms, or a stored span could not be
 * reclassified from its atoms. An effect with no target of its own (an unknown tool, a sub-agent,
 * code run in a notebook) goes on the call's TOOL_CALL atom, or, when the body does not name the
 * tool, on its first argument.
 */
function carryEffects(findings: Finding[], atoms: Atom[], from: number): void {
  const carried = new Set<SideEffectKind>();
  for (let i = from; i < atoms.length; i++) {
    const e = atoms[i]!.effect;
    if (e !== undefined) carried.add(e);
  }
  for (const f of findings) {
    if (carried.has(f.effect)) continue;
    let carrier: Atom | undefined;
    for (let i = from; i < atoms.length && !carrier; i++) {
      const a = atoms[i]!;
      if (a.kind === "TOOL_CALL" && a.effect === undefined) carrier = a;
    }
    for (let i = from; i < atoms.length && !carrier; i++) {
      const a = atoms[i]!;
      if (a.kind === "TOOL_ARG" && a.effect === undefined) carrier = a;
    }
    if (!carrier) continue;
    carrier.effect = f.effect;
    carrier.rule = f.rule;
    delete carrier.negated;
    carried.add(f.effect);
  }
}

function httpMethod(site: CallSite, k: ToolKnowledge): string {
  if (k.kind !== "http") return "GET";
  const m = site.args.find((a) => (k.methodArgs ?? []).includes(a.name));
  const t = m ? stringOf(m) : null;
  if (t) return t.s.toUpperCase();
  return site.args.some((a) => (k.bodyArgs ?? []).includes(a.name)) ? "POST" : "GET";
}

/** A string argument's value as a Text mapped to body bytes. */
export function stringOf(a: ArgSite): Text | null {
  if (a.text) return a.text;
  if (a.node && a.doc && a.node.k === "s") return a.doc.text(a.node);
  return null;
}

/** An argument's value: a string's value (its raw text when not UTF-8), or a literal's JSON text ("true", "12"). */
function argValue(a: ArgSite | undefined): string | undefined {
  if (!a) return undefined;
  const t = stringOf(a);
  if (t) return valueOf(t.s) ?? t.s;
  if (a.node && a.doc) return a.doc.t.s.slice(a.node.a, a.node.b);
  return undefined;
}

/** The string, or each string of an array of strings. */
function stringsOf(a: ArgSite): Text[] {
  const one = stringOf(a);
  if (one) return [one];
  if (a.argv) return a.argv;
  if (a.node && a.doc && a.node.k === "a") {
    const doc = a.doc;
    return a.node.items.filter((n): n is JNode & { k: "s" } => n.k === "s").map((n) => doc.text(n));
  }
  return [];
}

function emitToolArg(a: ArgSite, sink: AtomSink, extras: AtomExtras | undefined): void {
  const withName: AtomExtras = { ...extras, argName: a.name };
  const t = stringOf(a);
  if (t) {
    const v = valueOf(t.s);
    if (v !== null && t.s.length > 0) sink.add("TOOL_ARG", t, 0, t.s.length, v, withName);
    return;
  }
  if (a.node && a.doc) {
    const raw = a.doc.t.s.slice(a.node.a, a.node.b);
    const v = valueOf(raw);
    if (v !== null) sink.add("TOOL_ARG", a.doc.t, a.node.a, a.node.b, v, withName);
    return;
  }
  if (a.raw) {
    const v = valueOf(a.raw.t.s.slice(a.raw.a, a.raw.b));
    if (v !== null) sink.add("TOOL_ARG", a.raw.t, a.raw.a, a.raw.b, v, withName);
  } else if (a.argv && a.argv.length > 0) {
    for (const t of a.argv) {
      const v = valueOf(t.s);
      if (v !== null && t.s.length > 0) sink.add("TOOL_ARG", t, 0, t.s.length, v, withName);
    }
  }
}

function emitPath(t: Text, ctx: ScanContext, sink: AtomSink, extras: AtomExtras | undefined): void {
  const v = valueOf(t.s);
  if (v === null || v === "" || v.includes("\n")) return;
  sink.add("PATH", t, 0, t.s.length, normalizePath(v, ctx.cwd, ctx.home), extras);
}

function scanArg(a: ArgSite, sink: AtomSink, ctx: ScanContext, mode: ScanMode): void {
  if (a.node && a.doc) {
    walkJson(a.doc, a.node, { sink, ctx, handled: new Set() }, mode, a.name);
    return;
  }
  for (const t of a.text ? [a.text] : (a.argv ?? [])) scanText(t, sink, ctx, mode);
}

function shellEnv(sink: AtomSink, ctx: ScanContext, agentCommands = false): ShellEnv {
  return { sink, ctx: { ...ctx }, agentCommands, depth: 0 };
}

/** A command argument: a script string, or an argv array (Codex: ["bash", "-lc", "..."]). */
function analyzeCommandArg(a: ArgSite, sink: AtomSink, ctx: ScanContext, root: Text): Finding[] {
  const t = stringOf(a);
  if (t) return analyzeScript(t, shellEnv(sink, ctx), false);
  const parts = stringsOf(a);
  if (parts.length === 0) return [];
  for (const p of parts) scanText(p, sink, ctx, "shell");
  const words: Word[] = parts.map((p) => wordOfText(p));
  const range = argvRange(a, parts, root);
  return analyzeCommand(
    {
      words,
      redirects: [],
      rangeText: range.t,
      a: range.a,
      b: range.b,
      stdin: null,
      pipedTo: false,
      normalized: parts.map((p) => valueOf(p.s) ?? "").join(" "),
    },
    shellEnv(sink, ctx),
  );
}

function argvRange(a: ArgSite, parts: Text[], root: Text): { t: Text; a: number; b: number } {
  if (a.node && a.doc) return { t: a.doc.t, a: a.node.a, b: a.node.b };
  // Located element by element in the body: from the first element to the last.
  const last = parts[parts.length - 1]!;
  return { t: root, a: parts[0]!.byteAt(0), b: last.byteAt(last.s.length) };
}

/**
 * A SWE-agent-style command line: the agent's editor commands plus the shell. When it starts
 * with one of the agent's tools ("open", "edit", "submit"...), that word is the TOOL_CALL atom.
 */
function interpretCommandLine(t: Text, env: CallEnv): Finding[] {
  const m = /^\s*(edit|insert|append)\b[^\n]*\n/.exec(t.s);
  let findings: Finding[];
  if (m) {
    // The lines after "edit 12:14" are the replacement text, up to end_of_edit: data.
    findings = analyzeScript(t.sub(0, m[0].length - 1), shellEnv(env.sink, env.ctx, true), false);
    scanText(t.sub(m[0].length, t.s.length), env.sink, env.ctx, "data");
  } else findings = analyzeScript(t, shellEnv(env.sink, env.ctx, true), false);
  const first = /^\s*([A-Za-z_]+)/.exec(t.s);
  if (first && AGENT_COMMANDS.has(first[1]!)) {
    const a = first[0].length - first[1]!.length;
    const primary = primaryFinding(findings);
    env.sink.add(
      "TOOL_CALL",
      t,
      a,
      first[0].length,
      first[1]!,
      primary ? { effect: primary.effect, rule: primary.rule } : undefined,
    );
  }
  return findings;
}

function applyPatchText(t: Text, ctx: ScanContext, sink: AtomSink): Finding[] {
  const findings: Finding[] = [];
  for (const target of patchTargets(t.s)) {
    const off = stripDiffPrefix(t.s.slice(target.a, target.b));
    const sub = t.sub(target.a + off, target.b);
    emitPath(sub, ctx, sink, { effect: target.effect, rule: "tool.patch" });
    findings.push({ effect: target.effect, rule: "tool.patch" });
  }
  scanText(t, sink, ctx, "data");
  return findings;
}

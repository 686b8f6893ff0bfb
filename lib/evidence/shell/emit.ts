/** How a command's findings become atoms: its COMMAND atom with the main effect, and its paths. */
import { looksLikePath, normalizePath } from "../atoms/paths";
import { normalizeUrl } from "../atoms/shapes";
import { valueOf } from "../atoms/sink";
import type { SideEffectKind } from "../types";
import type { CommandInput, ShellEnv } from "./env";
import type { Word } from "./tokenize";
import type { CommandResult, Finding } from "./types";

const WEAK: ReadonlySet<SideEffectKind> = new Set(["PRIVILEGE_ESCALATION", "SHELL_MUTATION", "UNKNOWN_TOOL"]);

/** The effect a COMMAND atom carries: the most specific one its findings name. */
export function primaryFinding(findings: readonly Finding[]): Finding | undefined {
  return findings.find((f) => !WEAK.has(f.effect)) ?? findings.find((f) => f.effect !== "PRIVILEGE_ESCALATION") ?? findings[0];
}

export function emit(
  cmd: CommandInput,
  env: ShellEnv,
  findings: Finding[],
  privilege: { a: number; b: number } | null,
  result: CommandResult,
  extraReads: Word[],
  extraConsumed: Word[],
  words: Word[],
): void {
  const sink = env.sink;
  const primary = primaryFinding(findings);
  if (cmd.a >= 0 && cmd.b > cmd.a) {
    const v = cmd.normalized ?? valueOf(cmd.rangeText.s.slice(cmd.a, cmd.b));
    if (v !== null) {
      sink.add(
        "COMMAND",
        cmd.rangeText,
        cmd.a,
        cmd.b,
        v.trim().replace(/\s+/g, " "),
        primary ? { effect: primary.effect, rule: primary.rule } : undefined,
      );
    }
  }
  if (privilege !== null && privilege.a >= 0) {
    const v = valueOf(cmd.rangeText.s.slice(privilege.a, privilege.b)) ?? "sudo";
    sink.add("COMMAND", cmd.rangeText, privilege.a, privilege.b, v.trim().replace(/\s+/g, " "), {
      effect: "PRIVILEGE_ESCALATION",
      rule: "shell.sudo",
    });
  }

  const done = new Set<Word>(extraConsumed);
  for (const f of findings) {
    for (const w of f.targets ?? []) {
      if (done.has(w)) continue;
      done.add(w);
      emitPath(w, f.targetOffsets?.get(w) ?? 0, env, { effect: f.effect, rule: f.rule });
    }
    for (const { word, argName, kind } of f.args ?? []) {
      done.add(word);
      const v = valueOf(word.value);
      if (v === null || v === "") continue;
      const normalized = kind === "URL" ? normalizeUrl(v) : v;
      sink.add(kind ?? "TOOL_ARG", word.text(), 0, word.value.length, normalized, { effect: f.effect, rule: f.rule, argName });
    }
  }
  for (const w of [...(result.reads ?? []), ...extraReads]) {
    if (done.has(w)) continue;
    done.add(w);
    if (!/[*?[\]]|\$\(|`/.test(w.value)) emitPath(w, 0, env);
  }
  for (const w of result.consumed ?? []) done.add(w);
  for (const w of words.slice(1)) {
    if (done.has(w)) continue;
    if (looksLikePath(w.value)) emitPath(w, 0, env);
    else {
      const eq = w.value.indexOf("=");
      if (eq > 0 && looksLikePath(w.value.slice(eq + 1))) emitPath(w, eq + 1, env);
    }
  }
  // Quoted words are quoted strings (commit messages, patterns, SQL...).
  for (const w of cmd.words) {
    if (!w.quotedWhole || w.a < 0 || w.value.length === 0) continue;
    const v = valueOf(w.value);
    if (v !== null) sink.add("QUOTED", cmd.rangeText, w.a, w.b, v);
  }
}

export function emitPath(w: Word, offset: number, env: ShellEnv, extras?: { effect: SideEffectKind; rule: string }): void {
  const t = w.text();
  const raw = t.s.slice(offset);
  if (raw === "" || raw.length > 4096) return;
  const v = valueOf(raw);
  if (v === null) return;
  env.sink.add("PATH", t, offset, t.s.length, normalizePath(v, env.ctx.cwd, env.ctx.home), extras);
}

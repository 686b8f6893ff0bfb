/**
 * The contract between the shell analyser and the per-command knowledge: a handler looks at
 * one simple command (wrappers such as sudo and env already stripped) and says what it does.
 */
import type { SideEffectKind } from "../types";
import type { Text } from "../atoms/text";
import type { Word } from "./tokenize";

/** One effect of a command, and the words it lands on. */
export interface Finding {
  effect: SideEffectKind;
  /** Stable rule id shown in the UI ("shell.redirect", "shell.package-install"...). */
  rule: string;
  /** Paths written, deleted, moved... (become PATH atoms carrying the effect). */
  targets?: Word[];
  /** Value offset inside a target word (for "of=/dev/sda", "--output=file"): word -> offset. */
  targetOffsets?: Map<Word, number>;
  /** Non-path operands that carry the effect: packages, services, URLs. */
  args?: Array<{ word: Word; argName: string; kind?: "TOOL_ARG" | "URL" }>;
}

export interface CommandResult {
  findings: Finding[];
  /** Path operands that are only read (PATH atoms without effect). */
  reads?: Word[];
  /** Words that are not paths whatever they look like (scripts, patterns, messages). */
  consumed?: Word[];
}

export type StdinSource =
  | { kind: "heredoc"; text: Text; consume(): void }
  | { kind: "herestring"; word: Word }
  | { kind: "pipe" /** The feeding command's literal output when knowable (echo, printf). */; literal: string | null };

export interface CommandCall {
  /** Command name (basename of the command word). */
  name: string;
  word: Word;
  args: Word[];
  stdin: StdinSource | null;
  pipedTo: boolean;
  /** SWE-agent style editor commands are in scope (a bare command-line tool call). */
  agentCommands: boolean;
  /**
   * Analyses a nested script (`bash -c`, `su -c`, a heredoc fed to a shell) and emits its atoms;
   * returns its effects. `scanned`: its bytes were already scanned for generic atoms.
   */
  nested(t: Text, scanned?: boolean): Finding[];
  /** Analyses words as a command of their own (`find -exec`, `xargs`, `watch`) and emits its atoms. */
  sub(words: Word[]): CommandResult;
  /** Changes the working directory for the commands after this one (`cd`). */
  chdir(path: string): void;
  /** The same call seen as another command (`python -m pip` as `pip`). */
  withArgs(name: string, args: Word[]): CommandCall;
}

export type Handler = (c: CommandCall) => CommandResult;

export const NONE: CommandResult = { findings: [] };

export function effect(effect: SideEffectKind, rule: string, targets?: Word[]): Finding {
  return targets && targets.length > 0 ? { effect, rule, targets } : { effect, rule };
}

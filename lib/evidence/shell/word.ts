/** What the tokenizer produces: words with their raw ranges and unquoted text, redirects, commands. */
import type { Text } from "../atoms/text";

export interface Word {
  /** Raw range in the script's Text, quotes included. */
  a: number;
  b: number;
  /** Unquoted value (binary string). */
  value: string;
  /** Some part of the word was quoted or escaped (then it is never an operator or keyword). */
  quoted: boolean;
  /** When the whole word is one quoted string: its range including the quotes. */
  quotedWhole: boolean;
  /** The unquoted value as a Text mapped to body bytes. */
  text(): Text;
}

/** A word backed by a Text (one class, so no closure is created per word). */
export class ShellWord implements Word {
  constructor(
    readonly a: number,
    readonly b: number,
    readonly value: string,
    readonly quoted: boolean,
    readonly quotedWhole: boolean,
    private readonly t: Text,
  ) {}

  text(): Text {
    return this.t;
  }
}

/** A word that is a whole Text (an argv element, a path inside a patch). */
export function wordOfText(t: Text, a = -1, b = -1): Word {
  return new ShellWord(a, b, t.s, false, false, t);
}

/** The same word read as another value (a tar bundle "xzf" as "-xzf"); its bytes are unchanged. */
export function relabel(w: Word, value: string): Word {
  return new ShellWord(w.a, w.b, value, w.quoted, w.quotedWhole, w.text());
}

export interface Heredoc {
  /** Body range in the script's Text (without the delimiter line). */
  a: number;
  b: number;
  delimiter: string;
  /** A quoted delimiter (<<'EOF') means no expansion: the body is literal. */
  literal: boolean;
}

export interface Redirect {
  op: string;
  fd: number | null;
  target?: Word;
  heredoc?: Heredoc;
  a: number;
  b: number;
}

export interface SimpleCommand {
  words: Word[];
  redirects: Redirect[];
  /** Raw range of the command (words and redirections, not here-document bodies). */
  a: number;
  b: number;
  /** Its stdin comes from a pipe. */
  pipedFrom: boolean;
  /** Its stdout goes into a pipe. */
  pipedTo: boolean;
  /** The operator that ended it (`;` `&&` `||` `&` `|` a newline, a parenthesis), or "" at the end. */
  endedBy?: CommandSeparator;
}

export type CommandSeparator = ";" | "&&" | "||" | "&" | "|" | "\n" | "(" | ")" | "";

export interface Script {
  commands: SimpleCommand[];
  /** Here-document bodies: data, not shell. */
  heredocs: Heredoc[];
}

/**
 * A POSIX-shell tokenizer good enough to see what a command line does: simple commands split on
 * `;` `&&` `||` `|` `&` and newlines, words with their quotes removed ('...', "...", $'...',
 * backslashes), redirections with their targets, here-documents with their bodies, comments.
 * Command substitutions `$(...)` and backticks stay inside their word (not executed here).
 *
 * Every word keeps its raw range and a `Text` of its unquoted value mapped to body bytes, so a
 * path written as "/tmp/my file.txt" or /tmp/my\ file.txt becomes one PATH atom over exactly
 * the bytes that spell it.
 */
import { TextBuilder, type Text } from "../atoms/text";
import {
  type CommandSeparator,
  type Heredoc,
  type Redirect,
  type Script,
  ShellWord,
  type SimpleCommand,
  type Word,
} from "./word";

export {
  type CommandSeparator,
  type Heredoc,
  type Redirect,
  relabel,
  type Script,
  type SimpleCommand,
  type Word,
  wordOfText,
} from "./word";

const SPACE = /[ \t\r\f\v]/;
/** Characters that make a word need unquoting. */
const SPECIAL = new Set(["'", '"', "\\", "$", "`"]);
const WORD_BREAK = new Set([" ", "\t", "\r", "\n", ";", "&", "|", "<", ">", "(", ")"]);

export function tokenize(t: Text): Script {
  return new Tokenizer(t).run();
}

class Tokenizer {
  private i = 0;
  private readonly s: string;
  private readonly commands: SimpleCommand[] = [];
  private readonly heredocs: Heredoc[] = [];
  private pending: Redirect[] = [];
  private cur: SimpleCommand | null = null;
  private pipeIn = false;

  constructor(private readonly t: Text) {
    this.s = t.s;
  }

  run(): Script {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i]!;
      if (SPACE.test(c)) {
        this.i++;
      } else if (c === "\\" && s[this.i + 1] === "\n") {
        this.i += 2;
      } else if (c === "\n") {
        this.end(false, "\n");
        this.i++;
        this.readHeredocBodies();
      } else if (c === "#" && this.atWordStart()) {
        const nl = s.indexOf("\n", this.i);
        this.i = nl < 0 ? s.length : nl;
      } else if (c === ";") {
        this.end(false, ";");
        this.i += s[this.i + 1] === ";" ? 2 : 1;
      } else if (c === "&") {
        if (s[this.i + 1] === "&") {
          this.end(false, "&&");
          this.i += 2;
        } else if (s[this.i + 1] === ">") {
          this.redirect(null);
        } else {
          this.end(false, "&");
          this.i++;
        }
      } else if (c === "|") {
        if (s[this.i + 1] === "|") {
          this.end(false, "||");
          this.i += 2;
        } else {
          this.end(true, "|");
          this.i += s[this.i + 1] === "&" ? 2 : 1;
        }
      } else if (c === "(" || c === ")") {
        this.end(false, c === "(" ? "(" : ")");
        this.i++;
      } else if (c === "<" || c === ">") {
        this.redirect(null);
      } else if (c >= "0" && c <= "9" && this.fdRedirectAhead()) {
        let j = this.i;
        while (s[j]! >= "0" && s[j]! <= "9") j++;
        const fd = Number(s.slice(this.i, j));
        this.redirect(fd);
      } else {
        const w = this.word();
        this.command().words.push(w);
        this.touch(w.a, w.b);
      }
    }
    this.end(false);
    this.readHeredocBodies();
    return { commands: this.commands, heredocs: this.heredocs };
  }

  private atWordStart(): boolean {
    if (this.i === 0) return true;
    const p = this.s[this.i - 1]!;
    return SPACE.test(p) || p === "\n" || p === ";" || p === "&" || p === "|" || p === "(";
  }

  private fdRedirectAhead(): boolean {
    if (!this.atWordStart()) return false;
    let j = this.i;
    while (this.s[j]! >= "0" && this.s[j]! <= "9") j++;
    return this.s[j] === ">" || this.s[j] === "<";
  }

  private command(): SimpleCommand {
    if (this.cur === null) {
      this.cur = { words: [], redirects: [], a: this.i, b: this.i, pipedFrom: this.pipeIn, pipedTo: false };
    }
    return this.cur;
  }

  private touch(a: number, b: number): void {
    const c = this.command();
    if (c.words.length + c.redirects.length === 1) c.a = a;
    c.a = Math.min(c.a, a);
    c.b = Math.max(c.b, b);
  }

  private end(pipe: boolean, by: CommandSeparator = ""): void {
    const c = this.cur;
    if (c !== null && (c.words.length > 0 || c.redirects.length > 0)) {
      c.pipedTo = pipe;
      c.endedBy = by;
      this.commands.push(c);
    }
    this.cur = null;
    this.pipeIn = pipe;
  }

  private redirect(fd: number | null): void {
    const s = this.s;
    const a = this.i;
    let j = this.i;
    while (s[j]! >= "0" && s[j]! <= "9") j++;
    const ops = ["&>>", "&>", "<<<", "<<-", "<<", ">>", ">|", ">&", "<&", "<>", ">", "<"];
    const op = ops.find((o) => s.startsWith(o, j)) ?? s[j]!;
    j += op.length;
    const r: Redirect = { op, fd, a, b: j };
    this.i = j;
    if ((op === ">&" || op === "<&") && /^(?:\d+|-)(?![^\s;&|<>()])/.test(s.slice(j, j + 8))) {
      // fd duplication (2>&1, >&2): no file involved.
      while (this.i < s.length && !WORD_BREAK.has(s[this.i]!)) this.i++;
      r.b = this.i;
    } else {
      while (this.i < s.length && SPACE.test(s[this.i]!)) this.i++;
      if (this.i < s.length && !WORD_BREAK.has(s[this.i]!)) {
        const w = this.word();
        r.b = w.b;
        if (op === "<<" || op === "<<-") {
          r.heredoc = { a: -1, b: -1, delimiter: w.value, literal: w.quoted };
          this.pending.push(r);
        } else r.target = w;
      }
    }
    this.command().redirects.push(r);
    this.touch(r.a, r.b);
  }

  private readHeredocBodies(): void {
    const s = this.s;
    for (const r of this.pending) {
      const h = r.heredoc!;
      const strip = r.op === "<<-";
      h.a = this.i;
      let line = this.i;
      for (;;) {
        if (line >= s.length) {
          h.b = s.length;
          this.i = s.length;
          break;
        }
        const nl = s.indexOf("\n", line);
        const lineEnd = nl < 0 ? s.length : nl;
        let text = s.slice(line, lineEnd);
        if (text.endsWith("\r")) text = text.slice(0, -1);
        if (strip) text = text.replace(/^\t+/, "");
        if (text === h.delimiter) {
          h.b = line;
          this.i = nl < 0 ? s.length : nl + 1;
          break;
        }
        line = lineEnd + 1;
      }
      this.heredocs.push(h);
    }
    this.pending = [];
  }

  /** Reads one word at `i`, resolving quotes and escapes. */
  private word(): Word {
    const s = this.s;
    const a = this.i;
    // Most words have no quotes or escapes: their value is a plain slice.
    let j = a;
    while (j < s.length && !WORD_BREAK.has(s[j]!) && !SPECIAL.has(s[j]!)) j++;
    if (j > a && (j === s.length || WORD_BREAK.has(s[j]!))) {
      this.i = j;
      return new ShellWord(a, j, s.slice(a, j), false, false, this.t.sub(a, j));
    }
    const out = new TextBuilder(this.t);
    let quoted = false;
    let parts = 0;
    let quotedParts = 0;
    let i = this.i;
    while (i < s.length) {
      const c = s[i]!;
      if (WORD_BREAK.has(c)) break;
      parts++;
      if (c === "'") {
        quoted = true;
        quotedParts++;
        const close = s.indexOf("'", i + 1);
        const end = close < 0 ? s.length : close;
        out.skip(i + 1);
        out.copy(i + 1, end);
        out.skip(Math.min(end + 1, s.length));
        i = Math.min(end + 1, s.length); // an unclosed quote runs to the end
      } else if (c === '"') {
        quoted = true;
        quotedParts++;
        i = this.doubleQuoted(i, out);
      } else if (c === "$" && s[i + 1] === "'") {
        quoted = true;
        quotedParts++;
        i = this.ansiQuoted(i, out);
      } else if (c === "\\") {
        quoted = true;
        if (i + 1 < s.length) {
          if (s[i + 1] === "\n") out.skip(i + 2);
          else out.unit(s[i + 1]!, i, i + 2);
        }
        i = Math.min(i + 2, s.length);
      } else if (c === "$" && (s[i + 1] === "(" || s[i + 1] === "{")) {
        const end = matchingClose(s, i + 1);
        out.copy(i, end);
        i = end;
      } else if (c === "`") {
        const close = s.indexOf("`", i + 1);
        const end = close < 0 ? s.length : close + 1;
        out.copy(i, end);
        i = end;
      } else {
        let j = i + 1;
        while (j < s.length && !WORD_BREAK.has(s[j]!) && !"'\"\\$`".includes(s[j]!)) j++;
        out.copy(i, j);
        i = j;
      }
    }
    this.i = i;
    const built = out.build();
    return new ShellWord(a, i, built.s, quoted, parts === 1 && quotedParts === 1, built);
  }

  private doubleQuoted(i: number, out: TextBuilder): number {
    const s = this.s;
    out.skip(i + 1);
    let j = i + 1;
    let run = j;
    while (j < s.length && s[j] !== '"') {
      const c = s[j];
      if (c === "\\" && j + 1 < s.length && '$`"\\\n'.includes(s[j + 1]!)) {
        out.copy(run, j);
        if (s[j + 1] === "\n") out.skip(j + 2);
        else out.unit(s[j + 1]!, j, j + 2);
        j += 2;
        run = j;
      } else if (c === "$" && s[j + 1] === "(") {
        j = matchingClose(s, j + 1);
      } else if (c === "`") {
        const close = s.indexOf("`", j + 1);
        j = close < 0 ? s.length : close + 1;
      } else j++;
    }
    out.copy(run, j);
    out.skip(Math.min(j + 1, s.length));
    return Math.min(j + 1, s.length);
  }

  private ansiQuoted(i: number, out: TextBuilder): number {
    const s = this.s;
    const map: Record<string, string> = {
      n: "\n",
      t: "\t",
      r: "\r",
      "\\": "\\",
      "'": "'",
      '"': '"',
      a: "\x07",
      e: "\x1b",
      "0": "\0",
    };
    out.skip(i + 2);
    let j = i + 2;
    let run = j;
    while (j < s.length && s[j] !== "'") {
      if (s[j] === "\\" && j + 1 < s.length) {
        out.copy(run, j);
        const e = s[j + 1]!;
        const hex = e === "x" ? /^[0-9a-fA-F]{1,2}/.exec(s.slice(j + 2, j + 4)) : null;
        if (hex) {
          out.unit(String.fromCharCode(parseInt(hex[0], 16)), j, j + 2 + hex[0].length);
          j += 2 + hex[0].length;
        } else {
          out.unit(map[e] ?? e, j, j + 2);
          j += 2;
        }
        run = j;
      } else j++;
    }
    out.copy(run, j);
    out.skip(Math.min(j + 1, s.length));
    return Math.min(j + 1, s.length);
  }
}

/** Index just past the bracket that closes the one at `open` ("(" or "{"), quotes respected. */
function matchingClose(s: string, open: number): number {
  const o = s[open]!;
  const c = o === "(" ? ")" : "}";
  let depth = 0;
  let j = open;
  while (j < s.length) {
    const ch = s[j]!;
    if (ch === "\\") {
      j += 2;
      continue;
    }
    if (ch === "'") {
      const close = s.indexOf("'", j + 1);
      j = close < 0 ? s.length : close + 1;
      continue;
    }
    if (ch === o) depth++;
    else if (ch === c) {
      depth--;
      if (depth === 0) return j + 1;
    }
    j++;
  }
  return s.length;
}

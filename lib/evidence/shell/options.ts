/**
 * Getopt-style splitting of a command's arguments into options and operands. Knowing which
 * options take a value matters: in `tar -C /srv -xf app.tgz` the operand is not "/srv".
 */
import type { Word } from "./tokenize";

export interface ParsedArgs {
  /** Option name (without dashes, e.g. "o", "output") -> its value word, or null for flags. */
  opts: Map<string, Word | null>;
  /** Every option occurrence in order (repeatable options like -e). */
  all: Array<{ name: string; value: Word | null; word: Word }>;
  operands: Word[];
}

export interface OptionSpec {
  /** Short options that take a value ("o", "C"). */
  short?: string;
  /** Long options that take a value ("output", "directory"). */
  long?: readonly string[];
  /** Stop option parsing at the first operand (commands followed by a sub-command). */
  stopAtOperand?: boolean;
}

export function parseArgs(args: readonly Word[], spec: OptionSpec = {}): ParsedArgs {
  const opts = new Map<string, Word | null>();
  const all: ParsedArgs["all"] = [];
  const operands: Word[] = [];
  const shortWithValue = spec.short ?? "";
  const longWithValue = new Set(spec.long ?? []);
  let i = 0;
  const set = (name: string, value: Word | null, word: Word) => {
    opts.set(name, value);
    all.push({ name, value, word });
  };
  for (; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (w.quoted && !v.startsWith("-")) {
      operands.push(w);
      if (spec.stopAtOperand) {
        i++;
        break;
      }
      continue;
    }
    if (v === "--") {
      i++;
      break;
    }
    if (v.startsWith("--") && v.length > 2) {
      const eq = v.indexOf("=");
      const name = eq < 0 ? v.slice(2) : v.slice(2, eq);
      if (eq >= 0) set(name, w, w);
      else if (longWithValue.has(name) && i + 1 < args.length) set(name, args[++i]!, w);
      else set(name, null, w);
      continue;
    }
    if (v.startsWith("-") && v.length > 1 && !/^-\d/.test(v)) {
      for (let k = 1; k < v.length; k++) {
        const ch = v[k]!;
        if (shortWithValue.includes(ch)) {
          if (k + 1 < v.length)
            set(ch, w, w); // -ofile: value glued (see valueText)
          else if (i + 1 < args.length) set(ch, args[++i]!, w);
          else set(ch, null, w);
          break;
        }
        set(ch, null, w);
      }
      continue;
    }
    operands.push(w);
    if (spec.stopAtOperand) {
      i++;
      break;
    }
  }
  for (; i < args.length; i++) operands.push(args[i]!);
  return { opts, all, operands };
}

/**
 * The value of an option whose value may be glued to it ("-ofile", "--output=file"): the value
 * word and the offset of the value inside that word's value.
 */
export function optionValue(w: Word | null | undefined, name: string): { word: Word; offset: number } | null {
  if (!w) return null;
  const v = w.value;
  if (v.startsWith(`--${name}=`)) return { word: w, offset: name.length + 3 };
  // A short option glued to its value, possibly after other flags: "-ofile", "-qO-".
  if (name.length === 1 && v.length > 2 && v[0] === "-" && v[1] !== "-") {
    const k = v.indexOf(name, 1);
    if (k > 0 && k + 1 < v.length) return { word: w, offset: k + 1 };
  }
  return { word: w, offset: 0 };
}

export function has(p: ParsedArgs, ...names: string[]): boolean {
  return names.some((n) => p.opts.has(n));
}

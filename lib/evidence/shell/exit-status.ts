/**
 * Whose exit status a script's is. A shell reports the status of the last command it ran: of a
 * pipe's last stage (without `set -o pipefail`), of `b` in `a || b`, of `b` in `a; b` (without
 * `set -e`), and never of a command sent to the background with `&`. When a script has such an
 * earlier command, an exit 0 says only that the last one succeeded (docs/formats.md, "Outcomes").
 *
 * Commands that cannot fail in a way that matters (echo, printf, true, set...) hide nothing, nor do
 * readers whose output is data (cat, grep, jq, git show, gh run view...), nor the condition of an `if`/`while` (its
 * failure is the test, not an error).
 */
import { Text } from "../atoms/text";
import { type SimpleCommand, tokenize } from "./tokenize";

export type HiddenBy = "pipe" | "or" | "sequence" | "background";

export interface HiddenFailure {
  /** How the earlier command's status is lost. */
  by: HiddenBy;
  /** The earlier command whose failure the exit status would not show, as written. */
  command: string;
}

/** Commands whose status is not worth a doubt: they print, set or wait. */
const CANNOT_FAIL = new Set(["echo", "printf", "true", ":", "set", "export", "unset", "local", "sleep", "pwd", "shopt"]);
/**
 * Readers whose output is the data they read (`cat build.log | grep error`): error lines after
 * them are the file's, and their own failures ("cat: x: No such file or directory") are no error
 * line, so an earlier reader is no reason to doubt.
 */
const DATA_READERS = new Set(
  "cat head tail grep egrep fgrep rg ag jq yq sort uniq wc cut tr column nl tac less more ls tree find stat du df".split(" "),
);
/**
 * Sub-commands that print what is already recorded (`git show`, `gh run view --log-failed`): their
 * output is data too, often a log full of someone else's FAIL lines.
 */
const DATA_SUBCOMMANDS: Record<string, ReadonlySet<string>> = {
  git: new Set(["show", "log", "diff", "blame", "status", "cat-file", "ls-files", "grep", "shortlog"]),
  gh: new Set(["view", "list", "diff", "status", "checks"]),
};

/** `git -C dir show x` -> show; `gh run view 12 --log-failed` -> view (gh's noun is skipped). */
function readsData(name: string, args: readonly string[]): boolean {
  if (DATA_READERS.has(name)) return true;
  const subcommands = DATA_SUBCOMMANDS[name];
  if (!subcommands) return false;
  const words = args.filter((w, i) => !w.startsWith("-") && !["-C", "-c", "-R", "--repo"].includes(args[i - 1] ?? ""));
  return subcommands.has(words[0] ?? "") || (name === "gh" && subcommands.has(words[1] ?? ""));
}

/** Reserved words that open a command's text without being the command. */
const LEADING_KEYWORDS = new Set(["then", "else", "do", "{", "time"]);
/** Commands whose status is a test (if, while, until, `!`), and the heads of loops and cases. */
const CONDITIONS = new Set(["if", "elif", "while", "until", "!", "for", "select", "case"]);
/** Reserved words that close a compound command: never the last command that ran. */
const CLOSERS = new Set(["fi", "done", "esac", "}"]);

const HOW: Record<Exclude<SimpleCommand["endedBy"], undefined>, HiddenBy | "errexit" | null> = {
  "|": "pipe",
  "||": "or",
  "&": "background",
  "&&": null,
  ";": "errexit",
  "\n": "errexit",
  "(": "errexit",
  ")": "errexit",
  "": "errexit",
};

/**
 * The first earlier command of `script` whose failure its exit status would not show; null when
 * the status covers every command. `errexit`/`pipefail`: the shell was started with them.
 */
export function hiddenEarlierFailure(
  script: string,
  started: { errexit?: boolean; pipefail?: boolean } = {},
): HiddenFailure | null {
  const commands = tokenize(Text.contiguous(script, 0)).commands.filter((c) => !CLOSERS.has(c.words[0]?.value ?? ""));
  let errexit = started.errexit === true;
  let pipefail = started.pipefail === true;
  for (let i = 0; i < commands.length; i++) {
    const c = commands[i]!;
    const words = c.words.map((w) => w.value);
    while (words.length > 0 && LEADING_KEYWORDS.has(words[0]!)) words.shift();
    const name = words[0] ?? "";
    if (name === "set") {
      ({ errexit, pipefail } = readSet(words.slice(1), { errexit, pipefail }));
      continue;
    }
    if (i === commands.length - 1) break;
    if (CANNOT_FAIL.has(name) || readsData(name, words.slice(1)) || CONDITIONS.has(name) || words.length === 0) continue;
    const how = HOW[c.endedBy ?? ""];
    if (how === null) continue;
    if (how === "errexit" && errexit) continue;
    if (how === "pipe" && pipefail) continue;
    return { by: how === "errexit" ? "sequence" : how, command: script.slice(c.a, c.b) };
  }
  return null;
}

/** `set -e`, `set -euo pipefail`, `set -o errexit`, `set +e`: the options after a `set`. */
function readSet(args: readonly string[], now: { errexit: boolean; pipefail: boolean }): { errexit: boolean; pipefail: boolean } {
  let { errexit, pipefail } = now;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const on = a.startsWith("-");
    if (!/^[-+][A-Za-z]+$/.test(a)) continue;
    if (a.includes("e")) errexit = on;
    if (a.endsWith("o") && i + 1 < args.length) {
      const name = args[++i]!;
      if (name === "pipefail") pipefail = on;
      if (name === "errexit") errexit = on;
    }
  }
  return { errexit, pipefail };
}

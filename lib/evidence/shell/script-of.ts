/**
 * The script a call ran, read out of its command argument. Claude Code, OpenHands and Gemini CLI
 * pass a script string; Codex passes an argv that starts a shell on one (`["bash", "-lc", "<script>"]`,
 * also zsh, sh, dash, `-c`), so the script is its element after the `-c` group, and the shell's own
 * options (`-e`, `-o pipefail`) apply to all of it. Any other argv is a command of its own: its words
 * joined by spaces.
 */

export interface ScriptOfCommand {
  script: string;
  /** Options the shell was started with that change what its exit status means. */
  errexit: boolean;
  pipefail: boolean;
}

const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "ash"]);

/** The script of a command argument (a string or an argv of strings); null for anything else. */
export function scriptOfCommand(value: unknown): ScriptOfCommand | null {
  if (typeof value === "string") return { script: value, errexit: false, pipefail: false };
  if (!Array.isArray(value) || value.length === 0 || !value.every((x) => typeof x === "string")) return null;
  const argv = value as string[];
  const shell = argv[0]!.split("/").at(-1)!;
  if (SHELLS.has(shell)) {
    let errexit = false;
    let pipefail = false;
    for (let i = 1; i < argv.length; i++) {
      const a = argv[i]!;
      if (a === "-o" || a === "+o") {
        if (a === "-o" && argv[i + 1] === "pipefail") pipefail = true;
        if (a === "-o" && argv[i + 1] === "errexit") errexit = true;
        i++;
        continue;
      }
      if (!/^-[A-Za-z]+$/.test(a)) break;
      if (a.includes("e")) errexit = true;
      if (a.includes("c") && i + 1 < argv.length) return { script: argv[i + 1]!, errexit, pipefail };
    }
  }
  return { script: argv.join(" "), errexit: false, pipefail: false };
}

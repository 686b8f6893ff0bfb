/**
 * Shells and language runtimes. `bash -c "..."` and a heredoc fed to a shell are analysed as
 * scripts of their own; anything else that runs code (python x.py, npm test, make) is not known
 * to be read-only, so it counts as a mutation ("shell.runs-code"), the same default as an
 * unknown tool.
 */
import { patchTargets, stripDiffPrefix } from "../../patch";
import { parseArgs } from "../options";
import { wordOfText, type Word } from "../tokenize";
import { NONE, effect, type CommandCall, type CommandResult, type Finding, type Handler } from "../types";

export const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "fish", "ash", "busybox"]);

export const shell: Handler = (c) => {
  let script: Word | undefined;
  let i = 0;
  for (; i < c.args.length; i++) {
    const v = c.args[i]!.value;
    if (v === "-c" || /^-[a-zA-Z]*c[a-zA-Z]*$/.test(v)) {
      script = c.args[i + 1];
      break;
    }
    if (v === "-o" || v === "+o" || v === "-O" || v === "+O") {
      i++;
      continue;
    }
    if (!v.startsWith("-") && !v.startsWith("+")) break;
  }
  if (script) return { findings: c.nested(script.text()), consumed: c.args };
  const file = c.args[i];
  if (file) return { findings: [effect("SHELL_MUTATION", "shell.runs-code")], reads: [file], consumed: c.args.slice(i + 1) };
  if (c.stdin?.kind === "heredoc") {
    c.stdin.consume();
    return { findings: c.nested(c.stdin.text, false) };
  }
  if (c.stdin?.kind === "herestring") return { findings: c.nested(c.stdin.word.text()) };
  if (c.stdin?.kind === "pipe") return { findings: [effect("SHELL_MUTATION", "shell.pipe-to-shell")] };
  return NONE; // an interactive shell: nothing it ran is in this command
};

/** `eval "..."` with one argument runs that argument as a script. */
export const evalCmd: Handler = (c) =>
  c.args.length === 1
    ? { findings: c.nested(c.args[0]!.text()), consumed: c.args }
    : { findings: [effect("SHELL_MUTATION", "shell.runs-code")], consumed: c.args };

/** Version and help probes of any program are read-only. */
export function isProbe(args: Word[]): boolean {
  return args.length === 1 && /^(?:--?version|-V|-v|--?help|-h|version|help)$/.test(args[0]!.value);
}

export const runsCode: Handler = (c) => {
  const first = c.args.find((w) => !w.value.startsWith("-"));
  return {
    findings: [effect("SHELL_MUTATION", "shell.runs-code")],
    reads: first && /\.\w+$/.test(first.value) ? [first] : [],
    consumed: c.args.filter((w) => w !== first),
  };
};

/** python: -m pip is a package manager, -m venv writes a directory, the rest runs code. */
export function python(pip: Handler): Handler {
  return (c) => {
    const p = parseArgs(c.args, { short: "cmWX", long: [], stopAtOperand: true });
    const mod = p.opts.get("m");
    if (mod) {
      const rest = c.args.slice(c.args.indexOf(mod) + 1);
      if (mod.value === "pip") return pip(c.withArgs("pip", rest));
      if (mod.value === "venv" || mod.value === "virtualenv") {
        const dir = rest.find((w) => !w.value.startsWith("-"));
        return { findings: [effect("FILE_WRITE", "shell.file-write", dir ? [dir] : undefined)], consumed: [mod] };
      }
      if (mod.value === "json.tool" || mod.value === "pydoc" || mod.value === "site")
        return { findings: [], consumed: [mod], reads: rest };
    }
    const code = p.opts.get("c");
    return {
      findings: [effect("SHELL_MUTATION", "shell.runs-code")],
      reads: mod || code ? [] : p.operands.slice(0, 1),
      consumed: [...(code ? [code] : []), ...(mod ? [mod] : [])],
    };
  };
}

/** Formatters and linters: read-only unless asked to fix or write. */
export function formatter(writeFlags: RegExp, writesByDefault = false): Handler {
  return (c) => {
    const p = parseArgs(c.args);
    const check = c.args.some((w) => /^--?(?:check|diff|dry-run|list-different|l)$/.test(w.value));
    const writes = c.args.some((w) => writeFlags.test(w.value)) || (writesByDefault && !check);
    return writes ? { findings: [effect("FILE_WRITE", "shell.formatter", p.operands)] } : { findings: [], reads: p.operands };
  };
}

/** `apply_patch` (Codex CLI): the patch is the argument or the heredoc. */
export const applyPatch: Handler = (c) => {
  const arg = c.args[0];
  const t = arg ? arg.text() : c.stdin?.kind === "heredoc" ? c.stdin.text : null;
  if (c.stdin?.kind === "heredoc") c.stdin.consume();
  if (!t) return { findings: [effect("FILE_WRITE", "shell.patch")] };
  const findings: Finding[] = [];
  for (const target of patchTargets(t.s)) {
    const off = stripDiffPrefix(t.s.slice(target.a, target.b));
    const sub = t.sub(target.a + off, target.b);
    const w = wordOfText(sub);
    findings.push(effect(target.effect, "shell.patch", [w]));
  }
  if (findings.length === 0) findings.push(effect("FILE_WRITE", "shell.patch"));
  return { findings, consumed: arg ? [arg] : [] } satisfies CommandResult;
};

export function callIsProbe(c: CommandCall): boolean {
  return isProbe(c.args);
}

/**
 * git: commits and pushes are their own effects (VCS_COMMIT, VCS_PUSH); history-rewriting and
 * working-tree commands are mutations; inspection is read-only. The commit message is data: a
 * message saying "did not change config" does not make the commit any less of a commit.
 */
import { parseArgs } from "../options";
import type { Word } from "../tokenize";
import { effect, type Handler } from "../types";

const READ = new Set(
  (
    "status diff log show blame annotate grep ls-files ls-tree ls-remote rev-parse rev-list describe shortlog " +
    "cat-file show-ref whatchanged name-rev merge-base for-each-ref check-ignore check-attr count-objects version " +
    "help var cherry range-diff diff-tree diff-index diff-files fsck verify-commit verify-tag show-branch " +
    "get-tar-commit-id interpret-trailers column"
  ).split(" "),
);

/** Creates commits (or moves HEAD onto new ones). */
const COMMITS = new Set(["commit", "merge", "rebase", "cherry-pick", "revert", "am", "pull"]);

/** git's own options before the sub-command, and which take a value. */
const GLOBAL_WITH_VALUE = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--exec-path",
  "--super-prefix",
  "--config-env",
]);

export const git: Handler = (c) => {
  let i = 0;
  const consumed: Word[] = [];
  while (i < c.args.length) {
    const v = c.args[i]!.value;
    if (!v.startsWith("-")) break;
    if (GLOBAL_WITH_VALUE.has(v)) {
      if (c.args[i + 1]) consumed.push(c.args[i + 1]!);
      i += 2;
    } else i++;
  }
  const subWord = c.args[i];
  if (!subWord) return { findings: [], consumed };
  const sub = subWord.value;
  const rest = c.args.slice(i + 1);
  consumed.push(subWord);

  if (READ.has(sub)) return { findings: [], consumed, reads: pathspecs(rest) };
  if (sub === "commit") {
    const p = parseArgs(rest, {
      short: "mFCctS",
      long: [
        "message",
        "file",
        "reuse-message",
        "reedit-message",
        "author",
        "date",
        "template",
        "fixup",
        "squash",
        "trailer",
        "cleanup",
        "pathspec-from-file",
      ],
    });
    const messages = p.all.filter((o) => (o.name === "m" || o.name === "message") && o.value).map((o) => o.value!);
    return { findings: [effect("VCS_COMMIT", "shell.vcs-commit", p.operands)], consumed: [...consumed, ...messages] };
  }
  if (sub === "push") return { findings: [effect("VCS_PUSH", "shell.vcs-push")], consumed: [...consumed, ...rest] };
  if (COMMITS.has(sub)) return { findings: [effect("VCS_COMMIT", "shell.vcs-commit")], consumed: [...consumed, ...rest] };
  if (sub === "rm") return { findings: [effect("FILE_DELETE", "shell.vcs-worktree", pathspecs(rest))], consumed };
  if (sub === "mv") return { findings: [effect("FILE_MOVE", "shell.vcs-worktree", pathspecs(rest))], consumed };
  if (sub === "clean") {
    const p = parseArgs(rest, { short: "e", long: ["exclude"] });
    if (p.opts.has("n") || p.opts.has("dry-run")) return { findings: [], consumed };
    return { findings: [effect("FILE_DELETE", "shell.vcs-clean", p.operands)], consumed };
  }
  if (sub === "restore" || (sub === "checkout" && rest.some((w) => w.value === "--"))) {
    const dd = rest.findIndex((w) => w.value === "--");
    const paths = sub === "checkout" ? rest.slice(dd + 1) : pathspecs(rest);
    return { findings: [effect("FILE_WRITE", "shell.vcs-worktree", paths)], consumed };
  }
  if (sub === "apply") {
    const p = parseArgs(rest, { short: "pC", long: ["directory", "exclude", "include"] });
    if (p.opts.has("check") || p.opts.has("stat") || p.opts.has("numstat")) return { findings: [], reads: p.operands, consumed };
    return { findings: [effect("FILE_WRITE", "shell.patch")], reads: p.operands, consumed };
  }
  if (sub === "clone") {
    const p = parseArgs(rest, {
      short: "bobcju",
      long: ["branch", "origin", "depth", "config", "reference", "template", "separate-git-dir", "filter", "jobs", "upload-pack"],
    });
    const dest = p.operands[1];
    return {
      findings: [effect("FILE_WRITE", "shell.vcs-clone", dest ? [dest] : undefined)],
      consumed: [...consumed, ...p.operands.slice(0, 1)],
    };
  }
  if (readOnlyVariant(sub, rest)) return { findings: [], consumed: [...consumed, ...rest] };
  return { findings: [effect("SHELL_MUTATION", "shell.vcs-worktree")], consumed, reads: sub === "add" ? pathspecs(rest) : [] };
};

/** Sub-commands that read or write depending on their arguments. */
function readOnlyVariant(sub: string, rest: Word[]): boolean {
  const vals = rest.map((w) => w.value);
  const operands = vals.filter((v) => !v.startsWith("-"));
  switch (sub) {
    case "branch":
      return (
        operands.length === 0 &&
        !vals.some((v) => /^-(?:[dDmMcC]|-delete|-move|-copy|-set-upstream-to|-unset-upstream|u)$/.test(v))
      );
    case "tag":
      return operands.length === 0 || vals.some((v) => /^-(?:l|n\d*|-list|v|-verify|-contains|-points-at)$/.test(v));
    case "remote":
      return operands.length === 0 || ["show", "get-url"].includes(operands[0]!);
    case "config":
      return vals.some((v) => /^--(?:get|get-all|get-regexp|list|show-origin)$|^-l$/.test(v)) || operands.length <= 1;
    case "stash":
      return operands[0] === "list" || operands[0] === "show";
    case "worktree":
    case "submodule":
    case "notes":
      return operands[0] === "list" || operands[0] === "status" || operands[0] === "show";
    case "reflog":
      return operands[0] !== "expire" && operands[0] !== "delete";
    case "bisect":
      return operands[0] === "log" || operands[0] === "view" || operands[0] === "visualize";
    case "fetch":
      return vals.includes("--dry-run");
    default:
      return false;
  }
}

/** Operands after options (and after "--"): the paths a git command names. */
function pathspecs(rest: Word[]): Word[] {
  const dd = rest.findIndex((w) => w.value === "--");
  if (dd >= 0) return rest.slice(dd + 1);
  return rest.filter(
    (w) => !w.value.startsWith("-") && !/^[A-Za-z0-9_.-]*(?:\.\.\.?|[~^@])/.test(w.value) && /[/.]/.test(w.value),
  );
}

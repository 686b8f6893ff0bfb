/**
 * The evidential class of a span (docs/design.md, "Vocabulary"), with the reasons a person can check:
 * - SIDE_EFFECTING: the span records a committed mutation. Effects come from the atoms (a path
 *   written, a mutating command, an unknown tool) or, when the body does not contain the call's
 *   arguments, from the runtime's hints. A failed command (exit code != 0) still counts: a failed
 *   attempt may have partly happened, and the attempt itself is what an audit asks about.
 * - STRUCTURED: it carries atoms (paths, numbers, ids, timestamps, negations, tool arguments), or
 *   is a read-only tool call.
 * - NARRATIVE: nothing of evidence.
 *
 * Tool results are never SIDE_EFFECTING by their own analysis: the call span is the one that
 * records the act (its result only reports it). A result that reports a mutation, or an exit
 * code, is at least STRUCTURED.
 */
import { MAX_SCAN_BYTES } from "./atoms";
import { hintFindings } from "./hints";
import { toolKnowledge } from "./tools";
import type { Atom, AtomKind, ClassReason, Classification, SideEffectKind, SpanInput } from "./types";
import { own } from "./own";

/** Most indexes a single reason lists (a 5 MB log can hold 100,000 atoms). */
const MAX_REASON_INDEXES = 100;

const RULE_TEXT: Record<string, string> = {
  "tool.write": "the tool writes a file",
  "tool.edit": "the tool edits a file",
  "tool.delete": "the tool deletes a file",
  "tool.move": "the tool moves a file",
  "tool.patch": "the tool applies a patch",
  "tool.http": "the tool sends a mutating HTTP request",
  "tool.sql": "the tool runs SQL that writes",
  "tool.code": "the tool runs code, which is not known to be read-only",
  "tool.process": "the tool signals or feeds a running process",
  "tool.escalation": "the call asks to run outside the sandbox (privilege escalation)",
  "tool.subagent": "the tool starts a sub-agent, whose acts are not known to be read-only",
  "tool.submit": "the tool submits the run's changes",
  "tool.unknown": "the tool is not known to be read-only",
  "tool.unidentified": "a tool call whose tool cannot be identified is not known to be read-only",
  "tool.vcs-commit": "the tool makes a commit",
  "tool.vcs-push": "the tool pushes commits",
  "tool.mcp-write": "the tool writes through a remote service (an MCP tool whose name leads with a write verb)",
  "shell.redirect": "shell redirection (> or >>) writes a file",
  "shell.tee": "tee writes a file",
  "shell.file-write": "the command writes a file",
  "shell.file-delete": "the command deletes files",
  "shell.file-move": "the command moves files",
  "shell.find-delete": "find -delete deletes files",
  "shell.sed-in-place": "sed -i edits a file in place",
  "shell.perl-in-place": "perl -i edits a file in place",
  "shell.awk-in-place": "awk -i inplace edits a file in place",
  "shell.patch": "the command applies a patch",
  "shell.editor": "an editor opens a file for writing",
  "shell.formatter": "a formatter rewrites files",
  "shell.archive-extract": "extracting an archive writes files",
  "shell.archive-create": "creating an archive writes a file",
  "shell.permission": "the command changes permissions or ownership",
  "shell.accounts": "the command changes user accounts",
  "shell.package-install": "a package manager installs packages",
  "shell.package-remove": "a package manager removes packages",
  "shell.package-manager": "a package manager changes its state",
  "shell.service": "the command starts, stops or reconfigures a service",
  "shell.power": "the command reboots or shuts down the machine",
  "shell.http-mutation": "an HTTP request with a mutating method",
  "shell.download": "a download writes a file",
  "shell.remote-copy": "a copy writes to another machine",
  "shell.forge": "the command changes a forge (pull request, issue, release...)",
  "shell.cloud": "the command changes cloud resources",
  "shell.remote": "the command runs commands on another machine",
  "shell.network": "a raw network client, not known to be read-only",
  "shell.db-write": "a database client runs statements that write",
  "shell.db-script": "a database client runs statements that cannot be inspected",
  "shell.vcs-commit": "git creates commits",
  "shell.vcs-push": "git pushes commits",
  "shell.vcs-worktree": "git changes the working tree, index or refs",
  "shell.vcs-clean": "git clean deletes files",
  "shell.vcs-clone": "a clone writes a repository",
  "shell.sudo": "the command runs with elevated privileges",
  "shell.container": "the command starts or changes containers",
  "shell.cluster": "the command changes a cluster",
  "shell.infrastructure": "the command changes infrastructure",
  "shell.runs-code": "the command runs code, which is not known to be read-only",
  "shell.pipe-to-shell": "output is piped into a shell",
  "shell.unknown-command": "the command is not known to be read-only",
  "shell.firewall": "the command changes firewall rules",
  "shell.kernel": "the command changes kernel settings",
  "shell.storage": "the command changes mounts or storage",
  "shell.process": "the command signals processes",
  "shell.crontab": "the command changes scheduled jobs",
  "shell.network-config": "the command changes network configuration",
  "shell.hostname": "the command changes the host name",
  "shell.clock": "the command changes the clock",
  "shell.locale": "the command changes the locale",
  "agent.create": "the agent's editor creates a file",
  "agent.edit": "the agent's editor edits the open file",
  "agent.submit": "the agent submits its changes",
};

/** Results that say a mutation happened ("File created successfully", "1 file changed"...). */
const MUTATION_REPORT =
  /\b(?:(?:file|directory) (?:created|written|updated|deleted|modified) successfully|successfully (?:wrote|written|created|updated|modified|edited|deleted|removed|installed|committed|pushed|applied)|has been (?:updated|created|modified|written|deleted|installed)|Successfully installed|\d+ files? changed|create mode \d{6}|Setting up [\w.+-]+ \(|Created symlink|added \d+ packages?|Applied patch|Done!? Updated|Wrote \d+ (?:bytes|lines)|\[[\w./-]+ [0-9a-f]{7,}\])/i;
/** Only the head of a result is checked for a mutation report (they come first or alone). */
const REPORT_WINDOW = 8 * 1024;

export function classifySpan(input: SpanInput, atoms: Atom[]): Classification {
  const reasons: ClassReason[] = [];
  const effects: SideEffectKind[] = [];

  // Effects carried by atoms, grouped by the rule that assigned them.
  const byRule = new Map<string, { rule: string; effect: SideEffectKind; idx: number[] }>();
  const callIdx: number[] = [];
  for (let i = 0; i < atoms.length; i++) {
    const a = atoms[i]!;
    if (a.kind === "TOOL_CALL" || a.kind === "COMMAND") callIdx.push(i);
    if (a.effect === undefined || a.negated) continue;
    const rule = a.rule ?? `effect.${a.effect.toLowerCase()}`;
    const key = `${rule}|${a.effect}`;
    const g = byRule.get(key);
    if (g) g.idx.push(i);
    else byRule.set(key, { rule, effect: a.effect, idx: [i] });
  }
  for (const { rule, ...g } of byRule.values()) {
    addEffect(effects, g.effect);
    reasons.push({ class: "SIDE_EFFECTING", rule, detail: effectDetail(rule, g.effect, g.idx, atoms), atomIndexes: cap(g.idx) });
  }

  const callInBody = callIdx.length > 0;
  // Arguments found in the body mean the call was interpreted from its bytes: trust the atoms.
  const argsInBody = atoms.some((a) => a.kind === "TOOL_ARG");
  const callSpan = input.kind === "TOOL_CALL" || (input.kind === "MESSAGE" && input.toolName !== undefined);
  if (byRule.size === 0 && !callInBody && !argsInBody && callSpan) {
    if (input.toolName !== undefined) {
      for (const f of dedupe(hintFindings(input))) {
        addEffect(effects, f.effect);
        reasons.push({
          class: "SIDE_EFFECTING",
          rule: f.rule,
          detail: `${own(RULE_TEXT, f.rule) ?? effectText(f.effect)} (${input.toolName}, from the runtime's report of the call)`,
        });
      }
    } else if (input.kind === "TOOL_CALL") {
      addEffect(effects, "UNKNOWN_TOOL");
      reasons.push({ class: "SIDE_EFFECTING", rule: "tool.unidentified", detail: RULE_TEXT["tool.unidentified"]! });
    }
  }

  if (effects.length > 0) {
    if (input.exitCode !== undefined && input.exitCode !== 0) {
      reasons.push({
        class: "SIDE_EFFECTING",
        rule: "exit.nonzero",
        detail: `exit code ${input.exitCode}: the attempt failed, but an attempted mutation still counts (it may have partly happened)`,
      });
    }
    return { class: "SIDE_EFFECTING", reasons, effects };
  }

  if (callSpan && input.toolName !== undefined) {
    const k = toolKnowledge(input.toolName, input.toolAnnotations);
    reasons.push({
      class: "STRUCTURED",
      rule: k.kind === "internal" ? "tool.internal" : "tool.read-only",
      detail:
        k.kind === "internal"
          ? `${input.toolName} only updates the agent's own plan or notes`
          : `${input.toolName} is known to be read-only${k.annotated === "read-only" ? " (MCP readOnlyHint)" : ""}`,
    });
  } else if (callInBody) {
    reasons.push({
      class: "STRUCTURED",
      rule: "tool.read-only",
      detail: "the call is known to be read-only",
      atomIndexes: cap(callIdx),
    });
  }
  if (atoms.length > 0) {
    const first: number[] = [];
    for (let i = 0; i < atoms.length && i < MAX_REASON_INDEXES; i++) first.push(i);
    reasons.push({
      class: "STRUCTURED",
      rule: "atoms.structured",
      detail: `carries ${describeKinds(atoms)}`,
      atomIndexes: first,
    });
  }
  if (input.kind === "TOOL_RESULT") {
    if (reportsMutation(input.body)) {
      reasons.push({
        class: "STRUCTURED",
        rule: "result.reports-mutation",
        detail: "the result reports a mutation; the call span records the act",
      });
    }
    if (input.exitCode !== undefined) {
      reasons.push({ class: "STRUCTURED", rule: "result.exit-code", detail: `the command exited with code ${input.exitCode}` });
    }
  }
  if (input.body.length > MAX_SCAN_BYTES) {
    reasons.push({
      class: "STRUCTURED",
      rule: "scan.truncated",
      detail: `only the first ${MAX_SCAN_BYTES} bytes were scanned for atoms; the rest cannot be shown to be narrative`,
    });
  }
  if (reasons.length > 0) return { class: "STRUCTURED", reasons, effects };
  return {
    class: "NARRATIVE",
    reasons: [{ class: "NARRATIVE", rule: "narrative.no-atoms", detail: "no atoms and no committed effect" }],
    effects,
  };
}

function addEffect(effects: SideEffectKind[], e: SideEffectKind): void {
  if (!effects.includes(e)) effects.push(e);
}

function cap(idx: number[]): number[] {
  return idx.length > MAX_REASON_INDEXES ? idx.slice(0, MAX_REASON_INDEXES) : idx;
}

function dedupe<T extends { effect: string; rule: string }>(fs: T[]): T[] {
  const seen = new Set<string>();
  return fs.filter((f) => {
    const k = `${f.effect}|${f.rule}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function effectText(e: SideEffectKind): string {
  return e.toLowerCase().replace(/_/g, " ");
}

/** "sed -i edits a file in place: /etc/nginx/nginx.conf" */
function effectDetail(rule: string, effect: SideEffectKind, idx: number[], atoms: Atom[]): string {
  const phrase = own(RULE_TEXT, rule) ?? effectText(effect);
  const targets: string[] = [];
  for (const i of idx) {
    const a = atoms[i]!;
    if (
      a.kind === "PATH" ||
      a.kind === "URL" ||
      (a.kind === "TOOL_ARG" && (a.argName === "package" || a.argName === "service"))
    ) {
      if (!targets.includes(a.normalized)) targets.push(a.normalized);
    }
  }
  if (targets.length === 0) {
    const cmd = idx.map((i) => atoms[i]!).find((a) => a.kind === "COMMAND" || a.kind === "TOOL_CALL");
    return cmd ? `${phrase}: ${clip(cmd.normalized)}` : phrase;
  }
  const shown = targets.slice(0, 5).join(", ");
  return `${phrase}: ${shown}${targets.length > 5 ? ` and ${targets.length - 5} more` : ""}`;
}

function clip(s: string): string {
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

const KIND_NOUN: Record<AtomKind, [string, string]> = {
  PATH: ["path", "paths"],
  COMMAND: ["command", "commands"],
  TOOL_CALL: ["tool call", "tool calls"],
  TOOL_ARG: ["tool argument", "tool arguments"],
  NUMBER: ["number", "numbers"],
  IDENTIFIER: ["identifier", "identifiers"],
  TIMESTAMP: ["timestamp", "timestamps"],
  URL: ["URL", "URLs"],
  QUOTED: ["quoted string", "quoted strings"],
  NEGATION: ["negation", "negations"],
};

function describeKinds(atoms: Atom[]): string {
  const counts = new Map<AtomKind, number>();
  let prev: AtomKind | null = null;
  let run = 0;
  for (const a of atoms) {
    if (a.kind === prev) {
      run++;
      continue;
    }
    if (prev !== null) counts.set(prev, (counts.get(prev) ?? 0) + run);
    prev = a.kind;
    run = 1;
  }
  if (prev !== null) counts.set(prev, (counts.get(prev) ?? 0) + run);
  return [...counts]
    .sort((x, y) => y[1] - x[1])
    .map(([k, n]) => `${n} ${KIND_NOUN[k][n === 1 ? 0 : 1]}`)
    .join(", ");
}

const latin1 = new TextDecoder("latin1");

function reportsMutation(body: Uint8Array): boolean {
  const head = body.length > REPORT_WINDOW ? body.subarray(0, REPORT_WINDOW) : body;
  return MUTATION_REPORT.test(latin1.decode(head));
}

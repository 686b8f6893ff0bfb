/**
 * A question and its scope in plain English, for an export an auditor reads without knowing the
 * predicate language (lib/evidence/questions/predicate.ts). Pure: the words are derived from the
 * predicates alone, so the same predicates always read the same, and the predicates travel beside
 * them in the export for anyone who wants the exact form.
 */
import { OUTCOME_LABELS } from "@/lib/evidence/outcomes";
import type { EvidencePredicate, EvidenceQuestion } from "@/lib/evidence/questions";
import type { AtomKind, SideEffectKind } from "@/lib/evidence/types";

const KIND_WORDS: Readonly<Record<AtomKind, string>> = {
  PATH: "path",
  COMMAND: "command",
  TOOL_CALL: "tool name",
  TOOL_ARG: "tool argument",
  NUMBER: "number",
  IDENTIFIER: "identifier",
  TIMESTAMP: "timestamp",
  URL: "URL",
  QUOTED: "quoted text",
  NEGATION: "negation",
};

const EFFECT_WORDS: Readonly<Record<SideEffectKind, string>> = {
  FILE_WRITE: "file write",
  FILE_DELETE: "file deletion",
  FILE_MOVE: "file move",
  PERMISSION_CHANGE: "permission change",
  PACKAGE_INSTALL: "package install",
  PACKAGE_REMOVE: "package removal",
  SERVICE_CONTROL: "service start, stop or enable",
  NETWORK_MUTATION: "network mutation (POST, PUT, PATCH or DELETE)",
  DB_WRITE: "database write",
  VCS_COMMIT: "version-control commit",
  VCS_PUSH: "version-control push",
  PRIVILEGE_ESCALATION: "privilege escalation",
  PROCESS_SPAWN: "process or container start",
  SHELL_MUTATION: "state-changing shell command",
  UNKNOWN_TOOL: "call of a tool not known to be read-only",
};

/** "a", "a or b", "a, b or c". */
function orList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

/** Values from the predicate are quoted as JSON strings: quotes, backslashes and control characters stay visible. */
const quote = (value: string) => JSON.stringify(value);

/** A prefix as the engine applies it: path-like ones are directories (path-prefix.ts), others plain prefixes. */
function prefixWords(prefix: string): string {
  if (prefix === "~/.*") return "a dotfile or dot-directory in a home directory";
  if (prefix.startsWith("~/")) return `${quote(prefix)} in any home directory`;
  if (prefix.startsWith("/")) return `${quote(prefix)} or below it`;
  return `anything starting with ${quote(prefix)}`;
}

const pattern = (source: string, flags?: string) => `/${source}/${flags ?? ""}`;

/**
 * One predicate as a sentence: what an atom must be (kind, committed effect, argument name), what
 * its value must be (prefixes, exclusions, pattern, outside the working directory), what its span
 * must be (tool, command, outcome of the call), and whether negated mentions count.
 */
export function predicateInWords(p: EvidencePredicate): string {
  const effects = p.effectKinds ?? [];
  const kinds = p.atomKinds ?? [];
  const kindWords = orList(kinds.map((k) => KIND_WORDS[k] ?? k));
  // "an identifier", "a URL": the article follows the first word as it is spoken.
  let subject =
    kinds.length > 0 ? `${/^[aeiou]/.test(kindWords) ? "an" : "a"} ${kindWords}` : effects.length > 0 ? "a target" : "any fact";
  if (p.argNames?.length) subject += ` named ${orList(p.argNames.map(quote))}`;
  const clauses: string[] = [];
  if (effects.length > 0) clauses.push(`of a committed ${orList(effects.map((e) => EFFECT_WORDS[e] ?? e))}`);
  if (p.valuePrefixes?.length) clauses.push(`whose value is ${orList(p.valuePrefixes.map(prefixWords))}`);
  if (p.excludePrefixes?.length) clauses.push(`except ${orList(p.excludePrefixes.map(prefixWords))}`);
  if (p.valuePattern !== undefined)
    clauses.push(`whose value matches the pattern ${pattern(p.valuePattern, p.valuePatternFlags)}`);
  if (p.outsideCwd) clauses.push("outside the session's working directory");
  if (p.toolNames?.length) clauses.push(`in a call of the tool ${orList(p.toolNames.map(quote))}`);
  if (p.commandPattern !== undefined)
    clauses.push(`in a span running a command that matches ${pattern(p.commandPattern, "i")} (any case)`);
  if (p.outcomes?.length) clauses.push(`in a call that ${orList(p.outcomes.map((o) => OUTCOME_LABELS[o] ?? o))}`);
  const negation = p.includeNegated ? 'negated mentions ("did not …") count too' : 'negated mentions ("did not …") do not count';
  const head = `${subject[0]!.toUpperCase()}${subject.slice(1)}`;
  return `${clauses.length > 0 ? `${head} ${clauses.join(", ")}` : head}; ${negation}.`;
}

/** The question in words: YES when any of its predicates matches, each on its own numbered line when there are several. */
export function questionInWords(question: Pick<EvidenceQuestion, "anyOf">): string {
  const lines = question.anyOf.map(predicateInWords);
  if (lines.length === 0) return "Nothing can match: the question has no predicates.";
  if (lines.length === 1) return `YES when some span holds: ${lines[0]}`;
  return `YES when some span holds any of:\n${lines.map((l, i) => `${i + 1}. ${l}`).join("\n")}`;
}

const instant = (d: Date) => `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** The scope in words: which sessions, and which span times (the end is exclusive). */
export function scopeInWords(
  projectName: string,
  scope: { sessionIds?: readonly string[] | null; from?: Date | null; to?: Date | null },
): string {
  const ids = scope.sessionIds ?? null;
  const sessions =
    ids === null
      ? `Every session of project ${quote(projectName)}`
      : ids.length === 1
        ? `Session ${ids[0]} of project ${quote(projectName)}`
        : `${ids.length} sessions of project ${quote(projectName)}`;
  const from = scope.from ?? null;
  const to = scope.to ?? null;
  if (!from && !to) return `${sessions}, spans of any time.`;
  if (from && to) return `${sessions}, spans from ${instant(from)} up to (not including) ${instant(to)}.`;
  return from ? `${sessions}, spans from ${instant(from)} on.` : `${sessions}, spans before ${instant(to!)}.`;
}

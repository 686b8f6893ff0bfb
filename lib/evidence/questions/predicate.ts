/**
 * Evidence questions as data: a predicate over atoms (docs/design.md, "Evidence questions"), and how
 * one atom is judged against it. Plain JSON so a policy can store and edit it.
 */
import { RE2JS } from "re2js";
import { TOOL_OUTCOMES, type ToolOutcome } from "../outcomes";
import { compilePathPrefixes, isPathUnder } from "../path-prefix";
import { ATOM_KINDS, SIDE_EFFECT_KINDS, type Atom, type AtomKind, type SideEffectKind } from "../types";

/**
 * One predicate: an atom matches when it satisfies EVERY field that is set. An empty predicate
 * matches every non-negated atom.
 */
export interface EvidencePredicate {
  atomKinds?: AtomKind[];
  /** The atom is the target of one of these committed mutations. */
  effectKinds?: SideEffectKind[];
  /**
   * The normalised value starts with one of these. Prefixes that look like paths ("/etc/",
   * "~/.ssh/", "~/.*") use path semantics (path-prefix.ts); others are plain string prefixes.
   */
  valuePrefixes?: string[];
  /** The normalised value must not fall under any of these (path semantics as above). */
  excludePrefixes?: string[];
  /**
   * Regular expression source tested against the normalised value (then the exact text), in RE2
   * syntax (see UserPattern): no backreferences or lookaround.
   */
  valuePattern?: string;
  valuePatternFlags?: string;
  /**
   * Span level: the span is a call of one of these tools (ASCII case-insensitive). Alone (with
   * at most `outcomes` and `includeNegated`) it asks whether the tool was called at all: a
   * TOOL_CALL span of the tool is cited whole, since a call's body need not spell its tool's name.
   */
  toolNames?: string[];
  /** TOOL_ARG atoms of these argument names. */
  argNames?: string[];
  /** Span level: some COMMAND atom of the span matches this regular expression source. */
  commandPattern?: string;
  /** The value is a path outside the session's working directory (needs the session's cwd). */
  outsideCwd?: boolean;
  /** Atoms inside a negation ("did not write /etc/hosts") count too. Default false. */
  includeNegated?: boolean;
  /**
   * Span level: the call the atom belongs to (a TOOL_CALL span, or a TOOL_RESULT paired with it)
   * ended with one of these outcomes. "Did every command succeed?" asks for FAILED and UNKNOWN.
   */
  outcomes?: ToolOutcome[];
}

/** A question: YES when any of its predicates matches (a disjunction). */
export interface EvidenceQuestion {
  id: string;
  title: string;
  description?: string;
  anyOf: EvidencePredicate[];
}

/** Outcome for one atom: matched, did not, or cannot be decided (e.g. the cwd is unknown). */
export type AtomMatch = "MATCH" | "NO_MATCH" | "UNDECIDABLE";

/** A predicate with its regular expressions and sets built once per question. */
export interface CompiledPredicate {
  readonly source: EvidencePredicate;
  readonly kinds: ReadonlySet<AtomKind> | null;
  readonly effects: ReadonlySet<SideEffectKind> | null;
  readonly valuePrefixes: readonly string[] | null;
  readonly excludePrefixes: readonly string[] | null;
  readonly valueRegex: UserPattern | null;
  readonly toolNames: ReadonlySet<string> | null;
  readonly argNames: ReadonlySet<string> | null;
  readonly commandRegex: UserPattern | null;
  readonly outsideCwd: boolean;
  readonly includeNegated: boolean;
  readonly outcomes: ReadonlySet<ToolOutcome> | null;
  /** Asks only whether a tool was called (see `toolNames`): a call of it is cited whole. */
  readonly wholeCall: boolean;
  /** Kinds whose loss could hide a match: what makes an honest summary's omission relevant. */
  readonly relevantKinds: ReadonlySet<AtomKind>;
  /** Asks about side effects: only SIDE_EFFECTING spans can hold a match. */
  readonly onSideEffects: boolean;
}

export class PredicateError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = "PredicateError";
  }
}

export function compilePredicate(p: EvidencePredicate): CompiledPredicate {
  return {
    source: p,
    kinds: setOrNull(p.atomKinds) ?? spanLevelDefaultKinds(p),
    effects: setOrNull(p.effectKinds),
    valuePrefixes: nonEmpty(p.valuePrefixes),
    excludePrefixes: nonEmpty(p.excludePrefixes),
    valueRegex: p.valuePattern ? compileRegex(p.valuePattern, p.valuePatternFlags, "valuePattern") : null,
    toolNames: p.toolNames?.length ? new Set(p.toolNames.map(toolNameKey)) : null,
    argNames: setOrNull(p.argNames),
    commandRegex: p.commandPattern ? compileRegex(p.commandPattern, "i", "commandPattern") : null,
    outsideCwd: p.outsideCwd === true,
    includeNegated: p.includeNegated === true,
    outcomes: setOrNull(p.outcomes),
    wholeCall: isWholeCall(p),
    relevantKinds: relevantKinds(p),
    onSideEffects: (p.effectKinds?.length ?? 0) > 0,
  };
}

/** Field errors for an untrusted predicate (from a form or the API); empty when valid. */
export function validatePredicate(p: EvidencePredicate): Array<{ field: string; message: string }> {
  const errors: Array<{ field: string; message: string }> = [];
  // No stored or compared text holds NUL: a predicate with one would fail its query (or its saving) with a 500.
  for (const [field, value] of Object.entries(p)) {
    const texts: unknown[] = Array.isArray(value) ? value : [value];
    if (texts.some((t) => typeof t === "string" && t.includes("\u0000")))
      errors.push({ field, message: "must not contain the NUL character (U+0000)" });
  }
  for (const [field, src, flags] of [
    ["valuePattern", p.valuePattern, p.valuePatternFlags],
    ["commandPattern", p.commandPattern, "i"],
  ] as const) {
    if (src === undefined) continue;
    try {
      compileRegex(src, flags, field);
    } catch (e) {
      errors.push({ field, message: e instanceof Error ? e.message : String(e) });
    }
  }
  for (const k of p.atomKinds ?? []) {
    if (!(ATOM_KINDS as readonly string[]).includes(k)) errors.push({ field: "atomKinds", message: `unknown atom kind ${k}` });
  }
  for (const o of p.outcomes ?? []) {
    if (!(TOOL_OUTCOMES as readonly string[]).includes(o)) errors.push({ field: "outcomes", message: `unknown outcome ${o}` });
  }
  for (const k of p.effectKinds ?? []) {
    if (!(SIDE_EFFECT_KINDS as readonly string[]).includes(k))
      errors.push({ field: "effectKinds", message: `unknown side-effect kind ${k}` });
  }
  return errors;
}

/** Span-level conditions: tool name and command pattern. */
export interface SpanContext {
  toolName?: string;
  atoms: readonly Atom[];
  cwd?: string;
  /** The outcome of the call the span is or belongs to; absent for spans that are no call. */
  outcome?: ToolOutcome;
}

/**
 * Whether the span qualifies at all (tool name, command pattern). `ignoreNegation` serves the
 * summary check, where a summary's prose cannot be trusted to keep negations straight.
 */
export function spanQualifies(p: CompiledPredicate, span: SpanContext, ignoreNegation = false): boolean {
  // A summary's prose (ignoreNegation) carries no outcome: a claim in it may still hide any call.
  if (p.outcomes && !ignoreNegation && (span.outcome === undefined || !p.outcomes.has(span.outcome))) return false;
  if (p.toolNames) {
    let ok = span.toolName !== undefined && p.toolNames.has(toolNameKey(span.toolName));
    for (let i = 0; !ok && i < span.atoms.length; i++) {
      const a = span.atoms[i]!;
      if (a.kind === "TOOL_CALL" && (ignoreNegation || !a.negated)) ok = namesTool(p.toolNames, a);
    }
    if (!ok) return false;
  }
  if (p.commandRegex) {
    const re = p.commandRegex;
    if (
      !span.atoms.some(
        (a) => a.kind === "COMMAND" && (ignoreNegation || !a.negated) && (re.test(a.normalized) || re.test(a.text)),
      )
    ) {
      return false;
    }
  }
  return true;
}

/**
 * One atom against the atom-level fields. `asClaim` judges a summary's own atoms: the effect and
 * negation fields are ignored, because prose that says "updated /etc/hosts" carries no reliable
 * effect, and one that says "did not" may have lost what it negated. A claim is only ever a reason
 * to doubt a NO, never a citation.
 */
export function matchAtom(p: CompiledPredicate, atom: Atom, cwd: string | undefined, asClaim = false): AtomMatch {
  if (!asClaim && atom.negated && !p.includeNegated) return "NO_MATCH";
  if (p.kinds && !p.kinds.has(atom.kind)) return "NO_MATCH";
  // Asked whether a tool was called: another tool's call in the same message is not an answer.
  if (p.wholeCall && atom.kind === "TOOL_CALL" && !namesTool(p.toolNames!, atom)) return "NO_MATCH";
  // Without the effect check a claim must at least be of a kind that could carry the match.
  if (asClaim && !p.relevantKinds.has(atom.kind)) return "NO_MATCH";
  if (!asClaim && p.effects && (atom.effect === undefined || !p.effects.has(atom.effect))) return "NO_MATCH";
  if (p.argNames && (atom.kind !== "TOOL_ARG" || atom.argName === undefined || !p.argNames.has(atom.argName))) return "NO_MATCH";
  const value = atom.normalized;
  if (p.valuePrefixes && !hasAnyPrefix(value, p.valuePrefixes)) return "NO_MATCH";
  if (p.excludePrefixes && hasAnyPrefix(value, p.excludePrefixes)) return "NO_MATCH";
  if (p.valueRegex && !p.valueRegex.test(value) && !p.valueRegex.test(atom.text)) return "NO_MATCH";
  if (p.outsideCwd) {
    // A value that is not an absolute path was relative to the working directory: inside it.
    if (!value.startsWith("/")) return "NO_MATCH";
    if (cwd === undefined || cwd === "") return "UNDECIDABLE";
    if (isPathUnder(value, cwd)) return "NO_MATCH";
  }
  return "MATCH";
}

/**
 * A tool name as predicates compare it: ASCII letters folded to lower case, nothing else changed,
 * so the database compares exactly as the engine does (lower() under the "C" collation; migration
 * 20261203083500_span_tool_call_names).
 */
export function toolNameKey(name: string): string {
  return name.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

function namesTool(names: ReadonlySet<string>, atom: Atom): boolean {
  return names.has(toolNameKey(atom.normalized)) || names.has(toolNameKey(atom.text));
}

function isPathLikePrefix(prefix: string): boolean {
  return prefix.startsWith("/") || prefix.startsWith("~/");
}

/**
 * Whether a value has any of the prefixes: a path-like one (isPathLikePrefix) as a path, on an
 * absolute value; another as a string. The test is made once per list of prefixes (a compiled
 * predicate's lists stay the same) and kept while the list lives.
 */
function hasAnyPrefix(value: string, prefixes: readonly string[]): boolean {
  let test = prefixTests.get(prefixes);
  if (!test) prefixTests.set(prefixes, (test = prefixTest(prefixes)));
  return test(value);
}

const prefixTests = new WeakMap<readonly string[], (value: string) => boolean>();

function prefixTest(prefixes: readonly string[]): (value: string) => boolean {
  const paths = prefixes.filter(isPathLikePrefix);
  const strings = prefixes.filter((p) => !isPathLikePrefix(p));
  const underPath = compilePathPrefixes(paths);
  return (value) => strings.some((p) => value.startsWith(p)) || (paths.length > 0 && value.startsWith("/") && underPath(value));
}

/** Kinds that can carry a path value. */
const PATH_CARRIERS: readonly AtomKind[] = ["PATH", "TOOL_ARG", "COMMAND", "QUOTED"];

/**
 * Kinds that can be the target of a side effect (the path written, the command run, the URL
 * posted to, the package named). Numbers, timestamps and negations never are.
 */
const EFFECT_CARRIERS: readonly AtomKind[] = ["PATH", "COMMAND", "TOOL_CALL", "TOOL_ARG", "URL", "QUOTED", "IDENTIFIER"];

/**
 * A predicate with only span-level fields ("calls of write_file", "commands matching sudo")
 * cites the tool call or the command itself, not every atom of the span.
 */
function spanLevelDefaultKinds(p: EvidencePredicate): ReadonlySet<AtomKind> | null {
  if (hasAtomLevelFields(p)) return null;
  const kinds = new Set<AtomKind>();
  if (p.toolNames?.length) kinds.add("TOOL_CALL");
  if (p.commandPattern) kinds.add("COMMAND");
  return kinds.size > 0 ? kinds : null;
}

function hasAtomLevelFields(p: EvidencePredicate): boolean {
  return Boolean(
    p.effectKinds?.length ||
      p.valuePrefixes?.length ||
      p.excludePrefixes?.length ||
      p.valuePattern ||
      p.argNames?.length ||
      p.outsideCwd,
  );
}

/** Tool names and nothing that looks at atoms or commands: "was the tool called?". */
function isWholeCall(p: EvidencePredicate): boolean {
  return Boolean(p.toolNames?.length) && !p.atomKinds?.length && !p.commandPattern && !hasAtomLevelFields(p);
}

/**
 * Which dropped kinds could have hidden a match. Negations are not: losing "did not" can only
 * turn a non-match into an apparent match in a summary's prose, never hide a real one.
 */
function relevantKinds(p: EvidencePredicate): Set<AtomKind> {
  // A whole call is cited, not an atom: a summary that dropped any part of a call may have hidden
  // it (its manifest counts atoms, and the tool's name need not be one).
  if (isWholeCall(p)) return new Set(ATOM_KINDS.filter((k) => k !== "NEGATION"));
  const base = p.atomKinds?.length ? p.atomKinds : (spanLevelDefaultKinds(p) ?? ATOM_KINDS.filter((k) => k !== "NEGATION"));
  let kinds = new Set<AtomKind>(base);
  const keep = (allowed: readonly AtomKind[]) => {
    kinds = new Set([...kinds].filter((k) => allowed.includes(k)));
  };
  if (p.argNames?.length) keep(["TOOL_ARG"]);
  if (p.effectKinds?.length) keep(EFFECT_CARRIERS);
  if ((p.valuePrefixes?.length && p.valuePrefixes.every(isPathLikePrefix)) || p.outsideCwd) keep(PATH_CARRIERS);
  // Span-level conditions: losing the tool call or the command hides whether the span qualifies.
  if (p.toolNames?.length) kinds.add("TOOL_CALL");
  if (p.commandPattern) kinds.add("COMMAND");
  return kinds;
}

/**
 * A user's regular expression, run on a linear-time engine (RE2): whatever the pattern, testing it
 * takes time proportional to the input, so no pattern can stall the server. `source` and `flags`
 * are as the user gave them (the SQL narrowing reads them); `test` searches anywhere in the value.
 */
export interface UserPattern {
  readonly source: string;
  /** The flags that apply, of "i", "m", "s" and "u" ("u" changes nothing: RE2 reads code points). */
  readonly flags: string;
  test(value: string): boolean;
}

/**
 * Largest compiled program a pattern may have, in RE2 instructions. The engine is linear in the
 * input, but its constant grows with the program: at this size a 1 MB value is tested in well
 * under 100 ms, while patterns ten times larger (`(\w{1000}){10}`) take seconds.
 */
export const MAX_PATTERN_PROGRAM = 2000;

/** Flags a pattern may carry; "g" and "y" (stateful in JavaScript) are dropped, others refused. */
const PATTERN_FLAGS: Record<string, number> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
  u: 0,
};

/**
 * Compiles a user's pattern in RE2 syntax (which JavaScript's common syntax is a subset of, less
 * backreferences and lookaround). What RE2 cannot run, or a program over the size limit, is a
 * PredicateError naming the field.
 */
export function compileRegex(source: string, flags: string | undefined, field: string): UserPattern {
  let mask = 0;
  let kept = "";
  for (const flag of flags ?? "") {
    if (flag === "g" || flag === "y") continue;
    const bit = PATTERN_FLAGS[flag];
    if (bit === undefined) throw new PredicateError(field, `unsupported flag "${flag}" (use i, m, s or u)`);
    if (!kept.includes(flag)) kept += flag;
    mask |= bit;
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(source, mask);
  } catch (e) {
    const detail = e instanceof Error ? e.message.replace(/^error parsing regexp: /, "") : "invalid regular expression";
    throw new PredicateError(
      field,
      `not a pattern the linear-time engine can run (RE2 syntax: no backreferences or lookaround): ${detail}`,
    );
  }
  if (re.programSize() > MAX_PATTERN_PROGRAM) {
    throw new PredicateError(
      field,
      `the pattern is too large (${re.programSize()} instructions; the limit is ${MAX_PATTERN_PROGRAM}): use fewer or smaller repetitions`,
    );
  }
  return { source, flags: kept, test: (value: string) => re.test(value) };
}

function setOrNull<T>(xs: readonly T[] | undefined): ReadonlySet<T> | null {
  return xs && xs.length > 0 ? new Set(xs) : null;
}

function nonEmpty<T>(xs: readonly T[] | undefined): readonly T[] | null {
  return xs && xs.length > 0 ? xs : null;
}

/**
 * Finding, by index, the atoms an evidence question could match: for each predicate, a SQL
 * condition that every atom `matchAtom` could call MATCH or UNDECIDABLE satisfies (a superset: the
 * pure engine still decides every match). Effect kinds and atom kinds lead the indexes; value
 * prefixes become byte-order ranges on the normalised value, or on the part of a path below its
 * home directory for "~/..." prefixes (migration 20261202122000_scale_read_paths).
 */
import { Prisma } from "@/lib/db/generated/client";
import { HOME_DOTFILES_TOKEN } from "@/lib/evidence/path-prefix";
import { type CompiledPredicate, unknownToolsCanBlock } from "@/lib/evidence/questions";
import { ATOM_KINDS, type AtomKind } from "@/lib/evidence/types";
import { candidatesInSessions, fewSessions, type Scope } from "./scope";

/**
 * The least string above every string that starts with `s`, in code point order (which is UTF-8
 * byte order, the "C" collation's); null when there is none.
 */
export function prefixUpperBound(s: string): string | null {
  const points = [...s];
  while (points.length > 0) {
    let next = points.pop()!.codePointAt(0)! + 1;
    if (next >= 0xd800 && next <= 0xdfff) next = 0xe000;
    if (next <= 0x10ffff) return points.join("") + String.fromCodePoint(next);
  }
  return null;
}

export interface PrefixRange {
  /** Range over the normalised value, or over the path below its home directory. */
  on: "value" | "home";
  from: string;
  /** Exclusive; null for no upper bound. */
  to: string | null;
}

/**
 * A byte-order range holding every value the prefix matches (see path-prefix.ts and
 * hasAnyPrefix in predicate.ts). Path prefixes cover the directory itself and what is below it,
 * so the range is over the prefix without its trailing slash; the engine drops the siblings
 * ("/etc" also admits "/etcd/...").
 */
export function prefixRange(prefix: string): PrefixRange {
  if (prefix === HOME_DOTFILES_TOKEN) return { on: "home", from: ".", to: "/" };
  if (prefix.startsWith("~/")) {
    const below = prefix.slice(2);
    const dir = below.endsWith("/") ? below.slice(0, -1) : below;
    return { on: "home", from: dir, to: dir === "" ? null : prefixUpperBound(dir) };
  }
  if (prefix.startsWith("/")) {
    const dir = prefix.length > 1 && prefix.endsWith("/") ? prefix.slice(0, -1) : prefix;
    return { on: "value", from: dir, to: prefixUpperBound(dir) };
  }
  return { on: "value", from: prefix, to: prefixUpperBound(prefix) };
}

/** How much of a value the value indexes hold (migration 20261202133000_bounded_atom_indexes). */
export const INDEXED_VALUE_CHARS = 500;

/** The indexed head of an atom's value (or of its path below its home), as the value indexes hold it. */
export function indexedValue(alias: string, on: PrefixRange["on"]): Prisma.Sql {
  return Prisma.raw(
    on === "home"
      ? `left(custodian_home_relative(${alias}.normalized), ${INDEXED_VALUE_CHARS}) collate "C"`
      : `left(${alias}.normalized, ${INDEXED_VALUE_CHARS}) collate "C"`,
  );
}

/**
 * The range on the indexed head of the value: a value starts with the prefix exactly when its
 * first 500 characters do, for a prefix no longer than that. A longer prefix narrows nothing.
 */
function rangeSql(alias: string, range: PrefixRange): Prisma.Sql {
  if ([...range.from].length > INDEXED_VALUE_CHARS) return Prisma.sql`true`;
  const value = indexedValue(alias, range.on);
  const lower = Prisma.sql`${value} >= ${range.from}`;
  return range.to === null ? lower : Prisma.sql`(${lower} and ${value} < ${range.to})`;
}

/**
 * Any of the ranges. The ranges below a home directory are tested only on paths holding "/" and
 * what every one of them starts with ("/." for the dotfiles policies name): each such range
 * computes the path's part below its home again, and a filter over a session's writes (most of
 * them in a project, not a home's dotfiles) would do that once per range and row.
 */
function prefixesSql(alias: string, ranges: PrefixRange[]): Prisma.Sql {
  const arms = (of: PrefixRange[]) => of.map((range) => rangeSql(alias, range));
  const home = ranges.filter((r) => r.on === "home");
  const value = arms(ranges.filter((r) => r.on === "value"));
  if (home.length > 0) {
    // Every value in a range starts with its `from`: so does every value in any of them with what all the `from`s share.
    const shared = home.map((r) => r.from).reduce(commonPrefix);
    const below = Prisma.sql`(${Prisma.join(arms(home), " or ")})`;
    value.push(
      shared === "" ? below : Prisma.sql`(strpos(${Prisma.raw(`${alias}.normalized`)}, ${`/${shared}`}) > 0 and ${below})`,
    );
  }
  return Prisma.sql`(${Prisma.join(value, " or ")})`;
}

/**
 * Any of the ranges as a filter on atoms found otherwise (prefixesAsFilter): each range is its
 * values that start with its `from` (the indexed ranges' upper bounds only say so to an index), so
 * the value prefixes are one test against an array and the home ones another, the part below a
 * home worked out once per atom (and only for paths holding what every home range starts with).
 * Dozens of ranges spelled one by one were most of a question's planning, and each home range
 * worked out the part below the home again.
 */
function prefixesFilterSql(alias: string, ranges: PrefixRange[]): Prisma.Sql {
  const normalized = Prisma.raw(`${alias}.normalized`);
  const arms: Prisma.Sql[] = [];
  const value = ranges.filter((r) => r.on === "value").map((r) => r.from);
  if (value.length > 0) arms.push(Prisma.sql`${normalized} ^@ any(${value}::text[])`);
  const home = ranges.filter((r) => r.on === "home").map((r) => r.from);
  if (home.length > 0) {
    const shared = home.reduce(commonPrefix);
    const below = Prisma.sql`custodian_home_relative(${normalized}) ^@ any(${home}::text[])`;
    arms.push(shared === "" ? below : Prisma.sql`(strpos(${normalized}, ${`/${shared}`}) > 0 and ${below})`);
  }
  return Prisma.sql`coalesce(${Prisma.join(arms, " or ")}, false)`;
}

function commonPrefix(a: string, b: string): string {
  const x = [...a];
  const y = [...b];
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return x.slice(0, i).join("");
}

/**
 * Literals of which every string the regular expression (RE2 syntax, see UserPattern) matches
 * contains one, when the source says so plainly: the whole source is a literal word, or a group at
 * its top level (no alternation around it, not made optional) lists literal words as
 * alternatives, such as "(?:sudo|apt-get|brew)". Null when the source does not say. Only ever
 * narrows candidates; the pattern itself still decides. Case is dealt with by regexNarrowing.
 */
export function requiredLiterals(source: string, _flags = ""): string[] | null {
  const word = /^[A-Za-z0-9_-]+$/;
  if (word.test(source)) return [source];
  let depth = 0;
  let found: string[] | null = null;
  let groupStart = -1;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\") {
      if (source[i + 1] === "Q") {
        // \Q...\E quotes everything up to \E (or the end): no group, class or alternation inside.
        const end = source.indexOf("\\E", i + 2);
        i = end < 0 ? source.length : end + 1;
      } else i++;
      continue;
    }
    if (c === "[") {
      i = classEnd(source, i);
      if (i < 0) return null;
    } else if (c === "(") {
      if (depth === 0) groupStart = i;
      depth++;
    } else if (c === ")") {
      depth--;
      if (depth < 0) return null;
      if (depth === 0 && found === null) {
        const next = source[i + 1];
        const inner = source.slice(groupStart + 1, i);
        const body = inner.startsWith("?:") ? inner.slice(2) : inner.startsWith("?") ? null : inner;
        const alternatives = body?.split("|");
        if (alternatives?.every((a) => word.test(a)) && next !== "?" && next !== "*" && next !== "{") found = alternatives;
      }
    } else if (c === "|" && depth === 0) {
      return null; // an alternative at the top level need not contain the group
    }
  }
  return depth === 0 ? found : null;
}

/**
 * Where the character class opening at `start` ends (the index of its "]"), as RE2 reads it: a
 * "]" first in the class (after an optional "^") is a member, "[:alpha:]" is one member, and
 * backslash escapes; -1 when it never closes.
 */
function classEnd(source: string, start: number): number {
  let i = start + 1;
  if (source[i] === "^") i++;
  if (source[i] === "]") i++;
  for (; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\") i++;
    else if (c === "[" && source[i + 1] === ":") {
      const end = source.indexOf(":]", i + 2);
      if (end >= 0) i = end + 1;
    } else if (c === "]") return i;
  }
  return -1;
}

/**
 * RE2's case folding of the characters a literal can hold: every ASCII letter and its other
 * case, and the two non-ASCII characters that fold to ASCII letters (KELVIN SIGN to "k", LONG S
 * to "s").
 */
const FOLDS: Record<string, string> = { k: "kK\u212a", s: "sS\u017f" };

/** A literal word as a Postgres pattern matching what RE2 matches for it, with or without case folding. */
function literalPattern(literal: string, foldCase: boolean): string {
  if (!foldCase) return literal;
  let out = "";
  for (const c of literal) {
    const lower = c.toLowerCase();
    out += /[a-z]/.test(lower) ? `[${FOLDS[lower] ?? lower + lower.toUpperCase()}]` : c;
  }
  return out;
}

/**
 * The value or text of atom `alias` could match the pattern (a necessary condition: it contains
 * one of the literals the pattern requires), or null. The literals are words (letters, digits, "_"
 * and "-"), matched case-sensitively in Postgres with each letter spelled out as RE2 folds it when
 * the pattern ignores case (by flag, or by an inline "(?i)" anywhere: read as ignoring case
 * throughout, which only widens the condition).
 */
export function regexNarrowing(alias: string, regex: { source: string; flags: string }): Prisma.Sql | null {
  const literals = requiredLiterals(regex.source, regex.flags);
  if (!literals) return null;
  const foldCase = regex.flags.includes("i") || /\(\?[A-Za-z-]*i/.test(regex.source);
  const pattern = `(${literals.map((l) => literalPattern(l, foldCase)).join("|")})`;
  // In the "C" collation: the pattern spells out every character it matches, so no collation
  // changes what it finds, and a database's own (C.UTF-8, say) took twice as long per value.
  const normalized = Prisma.raw(`(${alias}.normalized collate "C")`);
  const text = Prisma.raw(`(${alias}.text collate "C")`);
  // The text is usually the normalised value itself: match it only when it differs.
  return Prisma.sql`(${normalized} ~ ${pattern} or (${text} <> ${normalized} and ${text} ~ ${pattern}))`;
}

const ALL_KINDS: readonly AtomKind[] = ATOM_KINDS;

/**
 * matchAtom's outsideCwd test in SQL, leaving out only the atoms it finds NO_MATCH: a value that
 * is not an absolute path, or one under (isPathUnder) the session's known working directory. Most
 * of a project's writes are inside it, so "did we write outside the working directory?" judges the
 * few outside instead of every write.
 */
function outsideCwdSql(alias: string): Prisma.Sql {
  const a = alias;
  // isPathUnder's directory: the cwd without a trailing slash, but "/" itself.
  const dir = `(case when length(w.cwd) > 1 and right(w.cwd, 1) = '/' then left(w.cwd, -1) else w.cwd end)`;
  return Prisma.raw(`(left(${a}.normalized, 1) = '/' and not exists (
    select 1 from session w where w.id = ${a}.session_id and w.cwd <> ''
       and (${dir} = '/' or ${a}.normalized = ${dir} or starts_with(${a}.normalized, ${dir} || '/'))))`);
}

export interface AtomConditionOptions {
  /** Judge atoms as a summary's claims: effect and negation do not count, only relevant kinds. */
  asClaim?: boolean;
  /**
   * The atoms are found otherwise (a span's by its key, a few sessions' by session): the value
   * prefixes only filter them. Their ranges are not offered to the planner as index conditions,
   * whose weighing, dozens of ranges against every index, cost more than the rest of a
   * one-session question on the embedded database.
   */
  prefixesAsFilter?: boolean;
  /** The value prefixes are left out: the caller reads their ranges itself (candidate-ranges.ts). */
  withoutPrefixes?: boolean;
}

/**
 * The atoms of `alias` in the scope's sessions that the predicate could match, as a scan over the
 * scope finds them: by the value indexes, or by session for a few named sessions (whose prefixes
 * are then only a filter).
 */
export function atomsInScope(alias: string, p: CompiledPredicate, scope: Scope): Prisma.Sql {
  return Prisma.sql`${candidatesInSessions(alias, scope)} and ${atomCondition(alias, p, { prefixesAsFilter: fewSessions(scope.sessionIds) })}`;
}

/**
 * The SQL condition on `alias` (an evidence_atom) for atoms the predicate could match. When it
 * names neither effects, kinds nor prefixes, it narrows nothing but negation.
 */
export function atomCondition(alias: string, p: CompiledPredicate, options: AtomConditionOptions = {}): Prisma.Sql {
  const a = (column: string) => Prisma.raw(`${alias}.${column}`);
  const parts: Prisma.Sql[] = [];
  if (!options.asClaim && !p.includeNegated) parts.push(Prisma.sql`not ${a("negated")}`);
  let kinds: AtomKind[] | null = p.kinds ? [...p.kinds] : null;
  if (options.asClaim) kinds = (kinds ?? [...ALL_KINDS]).filter((k) => p.relevantKinds.has(k));
  if (p.argNames) {
    kinds = (kinds ?? ["TOOL_ARG"]).filter((k) => k === "TOOL_ARG");
    parts.push(Prisma.sql`${a("arg_name")} = any(${[...p.argNames]}::text[])`);
  }
  const effects = !options.asClaim && p.effects ? [...p.effects] : null;
  if (effects) parts.push(Prisma.sql`${a("effect")} = any(${effects}::"SideEffectKind"[])`);
  if (kinds) parts.push(Prisma.sql`${a("kind")} = any(${kinds}::"AtomKind"[])`);
  if (p.valuePrefixes) {
    // Without an effect the (kind, value) index serves the ranges: name every kind so it can.
    if (!effects && !kinds) parts.push(Prisma.sql`${a("kind")} = any(${[...ALL_KINDS]}::"AtomKind"[])`);
    const ranges = p.valuePrefixes.map(prefixRange);
    if (!options.withoutPrefixes)
      parts.push(options.prefixesAsFilter ? prefixesFilterSql(alias, ranges) : prefixesSql(alias, ranges));
  }
  const valueNarrowing = p.valueRegex ? regexNarrowing(alias, p.valueRegex) : null;
  if (valueNarrowing) parts.push(valueNarrowing);
  if (p.outsideCwd && !options.asClaim) parts.push(outsideCwdSql(alias));
  // A summary's claim on a command pattern: the summary must have a command that could match it.
  // (Candidate spans are few; for the many spans of a project, see judgeCandidates.)
  const commandNarrowing = options.asClaim && p.commandRegex ? regexNarrowing("c", p.commandRegex) : null;
  if (commandNarrowing) {
    parts.push(Prisma.sql`exists (select 1 from evidence_atom c
                                   where c.session_id = ${a("session_id")} and c.span_id = ${a("span_id")} and c.kind = 'COMMAND' and ${commandNarrowing})`);
  }
  return parts.length > 0 ? Prisma.join(parts, " and ") : Prisma.sql`true`;
}

/**
 * The atoms of `alias` that say their call is of a tool whose effects are not known: such a call
 * blocks a side-effect question (unknownToolsCanBlock), so the engine needs them. They are read
 * once for a question, not once for each predicate they could block.
 */
export function unknownToolCondition(alias: string): Prisma.Sql {
  return Prisma.raw(`(${alias}.effect = 'UNKNOWN_TOOL' and not ${alias}.negated)`);
}

/** Some predicate of the question is one an unknown tool's call can block. */
export function unknownToolsMatter(predicates: readonly CompiledPredicate[]): boolean {
  return predicates.some(unknownToolsCanBlock);
}

/** Predicates that look at a span's tool name or its commands, not only at the matching atom. */
export function hasSpanLevelConditions(p: CompiledPredicate): boolean {
  return p.toolNames !== null || p.commandRegex !== null;
}

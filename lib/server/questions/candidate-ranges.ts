/**
 * The atoms in scope a predicate could match, as a FROM item aliased `a` (every column of
 * evidence_atom). A predicate on value prefixes over a project or many sessions reads each value
 * prefix's range of the value index by itself, one arm of a UNION ALL each, its bounds constants,
 * so that the range is an index condition whatever the planner estimates. Spelled as one OR of
 * ranges, the plan followed the estimate, which multiplies the project's share of the atoms by a
 * range's share of all atoms: with a neighbour project writing a million paths under /etc/, it
 * took 98,600 of the project's atoms to be under the system prefixes (1,906 were), read all
 * 297,000 of its file writes through the (project, effect) head of the index and filtered them:
 * 2 s in place of 20 ms. (A lateral join over a list of ranges plans once, but only a subquery
 * fenced with OFFSET 0 keeps each range an index condition, and Citus pushes no such subquery
 * down.) The prefixes below a home directory are one arm: the range from the least of them to the
 * greatest, filtered by the prefixes; planned one by one, their expression took 30 ms to plan, and
 * a project's writes below its homes are few.
 */
import { Prisma } from "@/lib/db/generated/client";
import type { CompiledPredicate } from "@/lib/evidence/questions";
import { atomCondition, atomsInScope, INDEXED_VALUE_CHARS, indexedValue, type PrefixRange, prefixRange } from "./candidates";
import { candidatesInSessions, fewSessions, inProject, type Scope } from "./scope";

export function atomsInScopeFrom(p: CompiledPredicate, scope: Scope): Prisma.Sql {
  const ranges = indexedRanges(p, scope);
  if (!ranges) return Prisma.sql`(select * from evidence_atom a where ${atomsInScope("a", p, scope)}) a`;
  // The project's atoms in each arm; many named sessions filter the arms' rows once, so that their
  // list is sent once rather than with every arm (as a filter it narrowed no index read either).
  const rest = Prisma.sql`${inProject("e", scope)} and ${atomCondition("e", p, { withoutPrefixes: true })}`;
  const arms = ranges.value.map((r) => rangeArm(indexedValue("e", "value"), r, rest));
  if (ranges.home.length > 0) {
    const below = ranges.home.map((r) => r.from);
    const covering = { on: "home" as const, from: below.reduce(least), to: ranges.home.map((r) => r.to!).reduce(greatest) };
    // An atom in a value range and below a home prefix as well is the value arm's.
    const value = ranges.value.map((r) => r.from);
    const notValue = value.length > 0 ? Prisma.sql` and not e.normalized ^@ any(${value}::text[])` : Prisma.empty;
    const filter = Prisma.sql` and custodian_home_relative(e.normalized) ^@ any(${below}::text[])${notValue}`;
    arms.push(rangeArm(indexedValue("e", "home"), covering, Prisma.sql`${rest}${filter}`));
  }
  const union = Prisma.join(arms, " union all ");
  if (!scope.sessionIds) return Prisma.sql`(${union}) a`;
  return Prisma.sql`(select * from (${union}) u where ${candidatesInSessions("u", scope)}) a`;
}

/** The atoms `rest` admits in one range of the indexed value `value`. */
function rangeArm(value: Prisma.Sql, range: PrefixRange, rest: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`select * from evidence_atom e where ${rest} and ${value} >= ${range.from} and ${value} < ${range.to}`;
}

/**
 * The predicate's prefix ranges, value and home apart, when they are read from the index range by
 * range: over a project or many sessions (a few sessions' atoms are read by session), each range
 * bounded and indexed. A range inside another (a prefix that starts with another of its side) is
 * left out, so the ranges of a side are disjoint: a value is in a prefix's range exactly when it
 * starts with the prefix. Null: the predicate's atoms are read with its condition as it is.
 */
function indexedRanges(p: CompiledPredicate, scope: Scope): { value: PrefixRange[]; home: PrefixRange[] } | null {
  if (!p.valuePrefixes || fewSessions(scope.sessionIds)) return null;
  const ranges = p.valuePrefixes.map(prefixRange);
  if (ranges.some((r) => r.to === null || [...r.from].length > INDEXED_VALUE_CHARS)) return null;
  const outermost = (on: PrefixRange["on"]) => {
    const side = ranges.filter((r) => r.on === on);
    return side.filter((r, i) => !side.some((o, j) => (o.from === r.from ? j < i : r.from.startsWith(o.from))));
  };
  return { value: outermost("value"), home: outermost("home") };
}

/** Code point order, which is the "C" collation's (UTF-8 byte order); JavaScript's `<` is UTF-16's. */
function before(a: string, b: string): boolean {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d < 0;
  }
  return x.length < y.length;
}

const least = (a: string, b: string) => (before(b, a) ? b : a);
const greatest = (a: string, b: string) => (before(a, b) ? b : a);

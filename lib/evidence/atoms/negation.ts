/**
 * Negations: the cue itself is a NEGATION atom ("did not", "no files were changed", "skipped",
 * "0 newly installed"), and in prose it negates the atoms in its scope, so "I did not write
 * /etc/hosts" is not evidence of a write to /etc/hosts.
 *
 * Scope, kept deliberately simple and predictable:
 * - a cue negates what follows it up to the end of its clause ("did not write /etc/hosts");
 * - a passive or adjectival cue ("was not modified", "unchanged") also negates what precedes it
 *   in its clause ("/etc/hosts was not modified");
 * - a clause ends at a sentence end, a semicolon, a line end, or a contrast ("but", "however",
 *   "instead", "then"); a cue inside a quoted string does not reach past the quote.
 * Atoms that carry an effect come from structure (a tool call, a shell command), never from
 * prose, and are never negated: `git commit -m "did not change config"` is still a commit.
 */
import type { Atom } from "../types";
import { CLAUSE_BOUNDARY_RE, NEGATION_RE } from "./patterns";
import { valueOf, type AtomSink } from "./sink";
import type { Text } from "./text";

export interface NegationCue {
  a: number;
  b: number;
  passive: boolean;
}

export interface QuoteRange {
  a: number;
  b: number;
}

/** Adds a NEGATION atom per cue in `t` and returns the cues (Text coordinates). */
export function collectNegations(t: Text, sink: AtomSink, skip?: ReadonlyArray<readonly [number, number]>): NegationCue[] {
  const s = t.s;
  const cues: NegationCue[] = [];
  NEGATION_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = NEGATION_RE.exec(s)) !== null) {
    const a = m.index;
    const b = a + m[0].length;
    if (skip && skip.some(([x, y]) => a >= x && a < y)) continue;
    const v = valueOf(m[0]);
    if (v === null) continue;
    if (sink.add("NEGATION", t, a, b, normalizeCue(v)) === null) continue;
    cues.push({ a, b, passive: m[1] !== undefined });
  }
  return cues;
}

function normalizeCue(v: string): string {
  return v
    .toLowerCase()
    .replace(/\u2019/g, "'")
    .replace(/\bwon't\b/, "will not")
    .replace(/\bshan't\b/, "shall not")
    .replace(/\bcan ?not\b|\bcan't\b/, "can not")
    .replace(/n't\b/, " not")
    .replace(/\s+/g, " ");
}

/** Marks the atoms of one scanned text that fall inside a cue's scope. */
export function applyNegationScopes(t: Text, cues: NegationCue[], quotes: QuoteRange[], atoms: Atom[]): void {
  const s = t.s;
  const bounds: Array<[number, number]> = [];
  CLAUSE_BOUNDARY_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = CLAUSE_BOUNDARY_RE.exec(s)) !== null) bounds.push([m.index, m.index + m[0].length]);

  for (const cue of cues) {
    // Clause around the cue.
    let start = 0;
    let end = s.length;
    for (const [ba, bb] of bounds) {
      if (bb <= cue.a) start = bb;
      else if (ba >= cue.b) {
        end = ba;
        break;
      }
    }
    for (const q of quotes) {
      if (q.a <= cue.a && cue.b <= q.b) {
        start = Math.max(start, q.a);
        end = Math.min(end, q.b);
      }
    }
    const from = t.byteAt(cue.passive ? start : cue.b);
    const to = t.byteAt(end);
    const cueStart = t.byteAt(cue.a);
    const cueEnd = t.byteAt(cue.b);
    for (const atom of atoms) {
      if (atom.kind === "NEGATION" || atom.effect !== undefined) continue;
      if (atom.byteStart < from || atom.byteEnd > to) continue;
      // The cue's own text is not negated by itself (a QUOTED atom around it, for example).
      if (atom.byteStart <= cueStart && atom.byteEnd >= cueEnd) continue;
      atom.negated = true;
    }
  }
}

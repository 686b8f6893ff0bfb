/**
 * Where extraction puts atoms. It turns a range of a `Text` into body byte offsets and decodes
 * the atom's text from the body bytes themselves, so `decode(body[byteStart, byteEnd)) === text`
 * holds by construction. Ranges whose bytes are not valid UTF-8 produce no atom.
 */
import type { Atom, AtomKind, SideEffectKind } from "../types";
import { binaryToString, decodeRange, isAsciiBinary, isValidUtf8, isValidUtf8Binary } from "./bytes";
import type { Text } from "./text";

export interface AtomExtras {
  effect?: SideEffectKind;
  /** The classification rule that gave the atom its effect (e.g. "shell.redirect"). */
  rule?: string;
  negated?: boolean;
  argName?: string;
}

export class AtomSink {
  readonly atoms: Atom[] = [];

  constructor(
    readonly body: Uint8Array,
    /** The scanned part of the body as a binary string. */
    readonly root: string,
    private readonly rootAscii: boolean,
  ) {}

  /** True when the whole scanned body is ASCII (every slice of it is its own valid text). */
  get ascii(): boolean {
    return this.rootAscii;
  }

  /**
   * Adds an atom for units [a, b) of `t`; returns null when the bytes are not valid UTF-8.
   * `raw`, when the caller already holds `t.s.slice(a, b)`, saves slicing it again.
   */
  add(kind: AtomKind, t: Text, a: number, b: number, normalized: string, extras?: AtomExtras, raw?: string): Atom | null {
    const byteStart = t.byteAt(a);
    const byteEnd = t.byteAt(b);
    if (byteEnd <= byteStart) return null;
    // In an ASCII body a contiguous text's characters are its bytes: the slice is the text.
    const text = raw !== undefined && this.rootAscii && t.isContiguous ? raw : this.textOf(byteStart, byteEnd);
    if (text === null) return null;
    // Share the string when the normalised value is the text itself (less to keep alive).
    const atom: Atom = { kind, text, normalized: normalized === text ? text : normalized, byteStart, byteEnd };
    if (extras) {
      if (extras.effect !== undefined && !extras.negated) atom.effect = extras.effect;
      if (extras.rule !== undefined && atom.effect !== undefined) atom.rule = extras.rule;
      if (extras.negated) atom.negated = true;
      if (extras.argName !== undefined) atom.argName = extras.argName;
    }
    this.atoms.push(atom);
    return atom;
  }

  /** The decoded body bytes [a, b), or null when they are not valid UTF-8. */
  textOf(a: number, b: number): string | null {
    const raw = this.root.slice(a, b);
    if (this.rootAscii || isAsciiBinary(raw)) return raw;
    if (!isValidUtf8(this.body, a, b)) return null;
    return decodeRange(this.body, a, b);
  }
}

/** A binary value as a JS string, or null when it is not valid UTF-8 (then it yields no atom). */
export function valueOf(bin: string): string | null {
  if (isAsciiBinary(bin)) return bin;
  return isValidUtf8Binary(bin) ? binaryToString(bin) : null;
}

const KIND_ORDER: Record<AtomKind, number> = {
  TOOL_CALL: 0,
  TOOL_ARG: 1,
  COMMAND: 2,
  QUOTED: 3,
  NEGATION: 4,
  URL: 5,
  PATH: 6,
  TIMESTAMP: 7,
  IDENTIFIER: 8,
  NUMBER: 9,
};

/**
 * Byte order (outer atoms first), with exact duplicates (same kind and range, found twice by
 * overlapping passes) merged: the copy that knows more (an effect, an argument name) wins.
 */
export function finalizeAtoms(atoms: Atom[]): Atom[] {
  if (!inOrder(atoms)) atoms.sort(compareAtoms);
  // Merge duplicates in place.
  let n = 0;
  for (let i = 0; i < atoms.length; i++) {
    const a = atoms[i]!;
    const prev = n > 0 ? atoms[n - 1]! : undefined;
    if (prev && prev.kind === a.kind && prev.byteStart === a.byteStart && prev.byteEnd === a.byteEnd) {
      mergeInto(prev, a);
      continue;
    }
    atoms[n++] = a;
  }
  atoms.length = n;
  return atoms;
}

function compareAtoms(x: Atom, y: Atom): number {
  return x.byteStart - y.byteStart || y.byteEnd - x.byteEnd || KIND_ORDER[x.kind] - KIND_ORDER[y.kind];
}

function inOrder(atoms: Atom[]): boolean {
  for (let i = 1; i < atoms.length; i++) if (compareAtoms(atoms[i - 1]!, atoms[i]!) > 0) return false;
  return true;
}

function mergeInto(keep: Atom, other: Atom): void {
  if (other.effect !== undefined && keep.effect === undefined) {
    keep.effect = other.effect;
    if (other.rule !== undefined) keep.rule = other.rule;
    delete keep.negated; // an effect is structural: a committed act is never "negated"
  }
  if (keep.effect !== undefined) delete keep.negated;
  else if (other.negated) keep.negated = true;
  if (other.argName !== undefined && keep.argName === undefined) keep.argName = other.argName;
  // The normalised value from the structural pass (shell word, JSON value) is the better one.
  if (other.effect !== undefined || other.argName !== undefined) keep.normalized = other.normalized;
}

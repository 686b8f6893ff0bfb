/**
 * Builders for the engine's unit tests: atoms located in real bytes, originals in each state.
 * Test-only; kept out of the public API (index.ts does not export it).
 */
import { DAY_MS } from "./policy";
import type { Atom, AtomKind, OriginalFacts, SideEffectKind } from "./types";

const encoder = new TextEncoder();

export function bytes(s: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(s);
}

/** An atom whose byte range is where `text` first occurs in `body` (UTF-8), or 0-length when absent. */
export function atomIn(
  body: string,
  kind: AtomKind,
  text: string,
  extra: { normalized?: string; effect?: SideEffectKind; negated?: boolean; argName?: string; occurrence?: number } = {},
): Atom {
  let idx = -1;
  for (let n = 0; n <= (extra.occurrence ?? 0); n++) idx = body.indexOf(text, idx + 1);
  if (idx < 0) throw new Error(`"${text}" is not in the body`);
  const byteStart = encoder.encode(body.slice(0, idx)).length;
  const a: Atom = {
    kind,
    text,
    normalized: extra.normalized ?? text,
    byteStart,
    byteEnd: byteStart + encoder.encode(text).length,
  };
  if (extra.effect) a.effect = extra.effect;
  if (extra.negated) a.negated = true;
  if (extra.argName) a.argName = extra.argName;
  return a;
}

/** A free-standing atom for tests that do not care about bytes. */
export function atom(kind: AtomKind, text: string, extra: Partial<Atom> = {}): Atom {
  return { kind, text, normalized: text, byteStart: 0, byteEnd: text.length, ...extra };
}

export const T0 = new Date("2026-01-01T00:00:00Z");

export function daysAfter(d: Date, days: number): Date {
  return new Date(d.getTime() + days * DAY_MS);
}

export const originals = {
  /** Intact, no TTL. */
  forever: (): OriginalFacts => ({ present: true, hashMatches: true, expiresAt: null, pinned: false }),
  /** Intact, expiring `days` after `from`. */
  expiringAt: (at: Date, pinned = false): OriginalFacts => ({ present: true, hashMatches: true, expiresAt: at, pinned }),
  deleted: (): OriginalFacts => ({ present: false, hashMatches: false, expiresAt: null, pinned: false }),
  corrupt: (pinned = false): OriginalFacts => ({ present: true, hashMatches: false, expiresAt: null, pinned }),
};

/**
 * What keeps Postgres text (and jsonb) from holding a string exactly: the NUL character, or a lone
 * UTF-16 surrogate (a half of a pair, which has no UTF-8 encoding). Bodies are bytes and hold both;
 * names, labels and JSON values are text and cannot.
 */
export type UnstorableChar = "nul" | "lone-surrogate";

const SUSPECT = /[\0\ud800-\udfff]/;

/** The first thing in `s` that Postgres text cannot hold, or null when it can hold all of it. */
export function unstorableChar(s: string, { nul = true } = {}): UnstorableChar | null {
  // Nearly every string holds neither: one native scan rules both out before the loop below.
  if (!SUSPECT.test(s)) return null;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0 && nul) return "nul";
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return "lone-surrogate";
    } else if (c >= 0xdc00 && c <= 0xdfff) return "lone-surrogate";
  }
  return null;
}

/** Whether Postgres text (or jsonb) cannot hold `s` exactly. */
export function textCannotHold(s: string): boolean {
  return unstorableChar(s) !== null;
}

/** Whether `s` holds a UTF-16 surrogate without its pair. */
export function hasLoneSurrogate(s: string): boolean {
  return unstorableChar(s, { nul: false }) !== null;
}

/**
 * Our own words about hostile input (a reason, a detail) may quote it: there a visible `\u0000` for
 * NUL and a replacement character for a lone surrogate will do, so that Postgres text can hold them.
 */
export function storableWords(s: string): string {
  if (!textCannotHold(s)) return s;
  return s.replace(/\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (c) =>
    c === "\0" ? "\\u0000" : "\ufffd",
  );
}

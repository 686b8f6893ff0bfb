/**
 * An email as people are keyed, and the look-alikes refused. Two invitations that a person reads as
 * the same address must not make two accounts, one of them listing as someone else: so an address
 * is normalised (NFKC folds fullwidth letters and ligatures to their plain forms, then lower case),
 * and one that still holds characters a reader cannot see or tell apart is refused naming why:
 * invisible and bidirectional controls (a zero-width space, a right-to-left override), letters of
 * more than one script in one part (a Cyrillic "а" among Latin letters), or a domain ending in a dot.
 */
import { AppError } from "@/lib/core/errors";

const EMAIL = /^[^\s@]+@[^\s@]+$/;
/** Format, control, private-use and unassigned characters: none has a glyph a reader can check. */
const INVISIBLE = /[\p{Cf}\p{Cc}\p{Co}\p{Cn}]/u;
const SCRIPTS: Array<[string, RegExp]> = [
  ["Latin", /\p{Script=Latin}/u],
  ["Cyrillic", /\p{Script=Cyrillic}/u],
  ["Greek", /\p{Script=Greek}/u],
  ["Armenian", /\p{Script=Armenian}/u],
  ["Hebrew", /\p{Script=Hebrew}/u],
  ["Arabic", /\p{Script=Arabic}/u],
  ["Devanagari", /\p{Script=Devanagari}/u],
  ["Thai", /\p{Script=Thai}/u],
  ["Georgian", /\p{Script=Georgian}/u],
  ["Han", /\p{Script=Han}/u],
  ["Hiragana", /\p{Script=Hiragana}/u],
  ["Katakana", /\p{Script=Katakana}/u],
  ["Hangul", /\p{Script=Hangul}/u],
];
/** Scripts written together as one: Japanese (kanji and kana), Korean (hanja and hangul). */
const WRITTEN_TOGETHER = [new Set(["Han", "Hiragana", "Katakana"]), new Set(["Han", "Hangul"])];

function refuse(message: string): never {
  throw new AppError("VALIDATION_FAILED", `Invalid email: ${message}`, { fields: [{ path: "email", message }] });
}

/** The scripts of the letters of `part` (digits, punctuation and marks belong to none). */
function scriptsOf(part: string): Set<string> {
  const found = new Set<string>();
  for (const ch of part) {
    if (!/\p{L}/u.test(ch)) continue;
    found.add(SCRIPTS.find(([, re]) => re.test(ch))?.[0] ?? "Other");
  }
  return found;
}

function singleScript(part: string): boolean {
  const scripts = scriptsOf(part);
  return scripts.size <= 1 || WRITTEN_TOGETHER.some((group) => [...scripts].every((s) => group.has(s)));
}

/** An email as people are keyed: NFKC, trimmed and lower-cased; refused unless plainly one address. */
export function normalizeEmail(raw: string): string {
  if (INVISIBLE.test(raw)) refuse("holds an invisible or direction-changing character");
  const email = raw.normalize("NFKC").trim().toLowerCase();
  if (!EMAIL.test(email)) refuse("not an email address");
  const [local, domain] = email.split("@") as [string, string];
  if (domain.endsWith(".") || domain.startsWith(".") || domain.includes(".."))
    refuse("the domain has an empty label (a stray dot)");
  for (const part of [local, ...domain.split(".")]) {
    if (!singleScript(part)) refuse(`"${part}" mixes letters of different scripts, which can look alike`);
  }
  return email;
}

/**
 * Timestamps normalised to ISO 8601 UTC ("2024-03-05T12:22:01.000Z"). A date without a time
 * stays a date ("2024-03-05"). A time without a zone is read as UTC: transcripts and logs of
 * agent runtimes are overwhelmingly UTC, and inventing a local zone would be worse. Unknown
 * zone abbreviations are rejected rather than guessed. Years outside 1970-2199 are not
 * timestamps (they are version numbers, ids or noise).
 */
import { own } from "../own";

const MONTH_INDEX: Record<string, number> = {
  jan: 0,
  feb: 1,
  mar: 2,
  apr: 3,
  may: 4,
  jun: 5,
  jul: 6,
  aug: 7,
  sep: 8,
  oct: 9,
  nov: 10,
  dec: 11,
};

/** Offsets in minutes of the zone abbreviations that are unambiguous in practice. */
const ZONE_MINUTES: Record<string, number> = {
  Z: 0,
  UT: 0,
  UTC: 0,
  GMT: 0,
  EST: -300,
  EDT: -240,
  CST: -360,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
  CET: 60,
  CEST: 120,
  EET: 120,
  EEST: 180,
  JST: 540,
  KST: 540,
  AEST: 600,
  AEDT: 660,
};

function zoneOffset(zone: string | undefined): number | null {
  if (!zone) return 0;
  const z = zone.trim();
  if (z === "") return 0;
  const known = own(ZONE_MINUTES, z);
  if (known !== undefined) return known;
  const m = /^([+-])(\d\d):?(\d\d)?$/.exec(z);
  if (!m) return null;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? "0");
  if (minutes > 14 * 60) return null;
  return m[1] === "-" ? -minutes : minutes;
}

function instant(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  ms: number,
  offsetMin: number,
): string | null {
  if (y < 1970 || y > 2199 || mo < 0 || mo > 11 || d < 1 || d > 31 || h > 24 || mi > 59 || s > 60) return null;
  const t = Date.UTC(y, mo, d, h, mi, Math.min(s, 59), ms);
  const check = new Date(Date.UTC(y, mo, d));
  if (check.getUTCDate() !== d) return null; // 31 February
  return new Date(t - offsetMin * 60_000).toISOString();
}

const ISO = /^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:[.,](\d{1,9}))?)?(?:\s?(Z|UTC|GMT|[+-]\d\d(?::?\d\d)?))?)?$/;

/** Already canonical: "2026-03-05T14:22:01.123Z". */
const CANONICAL = /^\d{4}-(\d\d)-(\d\d)T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The decimal number spelled by s[a, b) (digits only). */
function num(s: string, a: number, b: number): number {
  let n = 0;
  for (let i = a; i < b; i++) n = n * 10 + (s.charCodeAt(i) - 48);
  return n;
}

export function normalizeIso(text: string): string | null {
  if (text.length === 24 && CANONICAL.test(text)) {
    // Most log timestamps are already canonical: validate the date without allocating.
    const y = num(text, 0, 4);
    const mo = num(text, 5, 7);
    const d = num(text, 8, 10);
    const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
    const ok = y >= 1970 && y <= 2199 && mo >= 1 && mo <= 12 && d >= 1 && d <= (mo === 2 && !leap ? 28 : DAYS_IN_MONTH[mo - 1]!);
    return ok ? text : null;
  }
  const m = ISO.exec(text);
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]) - 1;
  const d = Number(m[3]);
  if (m[4] === undefined) {
    // A date alone: validate it, keep it a date.
    return instant(y, mo, d, 0, 0, 0, 0, 0) === null ? null : `${m[1]}-${m[2]}-${m[3]}`;
  }
  const off = zoneOffset(m[8]);
  if (off === null) return null;
  const ms = m[7] ? Number(m[7].slice(0, 3).padEnd(3, "0")) : 0;
  return instant(y, mo, d, Number(m[4]), Number(m[5]), Number(m[6] ?? "0"), ms, off);
}

const RFC = /^(\d{1,2})\s([A-Za-z]{3})[a-z]*\s(\d{4})\s(\d\d):(\d\d)(?::(\d\d))?(?:\s([+-]\d{4}|[A-Z]{1,4}))?$/;

/** "05 Mar 2024 14:22:01 +0000" (the day-name prefix, if any, is matched separately). */
export function normalizeRfc(text: string): string | null {
  const m = RFC.exec(text);
  if (!m) return null;
  const mo = own(MONTH_INDEX, m[2]!.toLowerCase());
  if (mo === undefined) return null;
  const off = zoneOffset(m[7]);
  if (off === null) return null;
  return instant(Number(m[3]), mo, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6] ?? "0"), 0, off);
}

/** "Mar  5 14:22:01 UTC 2024" (date(1), git log); `month` comes from the text before the match. */
export function normalizeCtime(month: string, text: string): string | null {
  const m = /^(\d{1,2})\s(\d\d):(\d\d):(\d\d)(?:\s([A-Z]{3,4}))?\s(\d{4})(?:\s([+-]\d{4}))?$/.exec(text);
  const mo = own(MONTH_INDEX, month.toLowerCase());
  if (!m || mo === undefined) return null;
  const off = zoneOffset(m[7] ?? m[5]);
  if (off === null) return null;
  return instant(Number(m[6]), mo, Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), 0, off);
}

/** Common log format "05/Mar/2024:14:22:01 +0000". */
export function normalizeClf(text: string): string | null {
  const m = /^(\d\d)\/([A-Za-z]{3})\/(\d{4}):(\d\d):(\d\d):(\d\d)\s([+-]\d{4})$/.exec(text);
  if (!m) return null;
  const mo = own(MONTH_INDEX, m[2]!.toLowerCase());
  const off = zoneOffset(m[7]);
  if (mo === undefined || off === null) return null;
  return instant(Number(m[3]), mo, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]), 0, off);
}

/** Unix epoch seconds (10 digits) or milliseconds (13 digits), only where a label says so. */
export function normalizeEpoch(digits: string): string | null {
  const n = Number(digits);
  const ms = digits.length >= 13 ? n : n * 1000;
  if (ms < Date.UTC(2000, 0, 1) || ms >= Date.UTC(2100, 0, 1)) return null;
  return new Date(ms).toISOString();
}

/** Text right before a day-of-month match: optional day name, then the month ("Tue, ", "Tue Mar  "). */
export const RFC_PREFIX = /(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?\s)?$/;
export const CTIME_PREFIX =
  /(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?\s+)?(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\s{1,2}$/;

/**
 * Numbers with units, normalised as "<value> <unit>" with one spelling per unit: "5MB" and
 * "5 mb" are both "5 MB", "200ms" is "200 ms", "1.50 seconds" is "1.5 s", "3 file" and
 * "3 files" are "3 files". A question about "files changed" then matches however it was written.
 */
import { own } from "../own";

const UNIT_CANON: Record<string, string> = {
  b: "B",
  byte: "B",
  bytes: "B",
  kb: "KB",
  mb: "MB",
  gb: "GB",
  tb: "TB",
  pb: "PB",
  kib: "KiB",
  mib: "MiB",
  gib: "GiB",
  tib: "TiB",
  pib: "PiB",
  ns: "ns",
  us: "us",
  "\u00b5s": "us",
  "\u03bcs": "us",
  ms: "ms",
  s: "s",
  sec: "s",
  secs: "s",
  second: "s",
  seconds: "s",
  m: "min",
  min: "min",
  mins: "min",
  minute: "min",
  minutes: "min",
  h: "h",
  hr: "h",
  hrs: "h",
  hour: "h",
  hours: "h",
  d: "d",
  day: "d",
  days: "d",
  "%": "%",
  directory: "directories",
  directories: "directories",
  dir: "directories",
  dirs: "directories",
  folder: "directories",
  folders: "directories",
  chars: "characters",
  characters: "characters",
  match: "matches",
  matches: "matches",
  entry: "entries",
  entries: "entries",
  retries: "attempts",
  attempt: "attempts",
  attempts: "attempts",
  times: "times",
  passed: "passed",
  failed: "failed",
  "insertion(+)": "insertions",
  "insertions(+)": "insertions",
  "deletion(-)": "deletions",
  "deletions(-)": "deletions",
  vulnerability: "vulnerabilities",
  vulnerabilities: "vulnerabilities",
  "req/s": "req/s",
  "ops/s": "ops/s",
  "kb/s": "KB/s",
  "mb/s": "MB/s",
  "gb/s": "GB/s",
  usd: "USD",
  eur: "EUR",
};

/** The canonical spelling of a unit as written (case and plural folded). */
const unitCache = new Map<string, string>();

export function canonicalUnit(unit: string): string {
  let u = unitCache.get(unit);
  if (u === undefined) {
    u = spellUnit(unit);
    if (unitCache.size < 1024) unitCache.set(unit, u);
  }
  return u;
}

function spellUnit(unit: string): string {
  const lower = unit.toLowerCase();
  const known = own(UNIT_CANON, lower);
  if (known) return known;
  // Count nouns: plural form ("file" and "files" -> "files").
  return lower.endsWith("s") ? lower : `${lower}s`;
}

/** "1,234" -> "1234", "007" -> "7", "1.50" -> "1.5"; exact for integers of any size. */
export function canonicalValue(v: string): string {
  if (/^(?:0|[1-9]\d{0,14})$/.test(v)) return v;
  const plain = v.replace(/,/g, "");
  if (/^-?\d+$/.test(plain)) {
    const neg = plain.startsWith("-");
    const digits = (neg ? plain.slice(1) : plain).replace(/^0+(?=\d)/, "");
    return neg && digits !== "0" ? `-${digits}` : digits;
  }
  const n = Number(plain);
  return Number.isFinite(n) ? String(n) : plain;
}

const SPLIT = /^((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)\s?(.+)$/;

/** Normalises a matched "<number><unit>" text; null when it is not one. */
export function normalizeNumberWithUnit(text: string): string | null {
  // Split after the number: digits, thousands commas, one decimal point.
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if ((c >= 0x30 && c <= 0x39) || c === 0x2c || c === 0x2e) i++;
    else break;
  }
  if (i === 0 || i === text.length) {
    const m = SPLIT.exec(text);
    return m ? `${canonicalValue(m[1]!)} ${canonicalUnit(m[2]!)}` : null;
  }
  const unitStart = text.charCodeAt(i) === 0x20 ? i + 1 : i;
  return `${canonicalValue(text.slice(0, i))} ${canonicalUnit(text.slice(unitStart))}`;
}

export function normalizeExitCode(digits: string): string {
  return `${canonicalValue(digits)} exit_code`;
}

export function normalizeCurrency(text: string): string {
  return `${canonicalValue(text.slice(1))} USD`;
}

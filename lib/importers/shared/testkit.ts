/**
 * Test helpers for the importers: fixture loading (tests may read files; importers never do) and
 * the invariants every import result must satisfy, whatever the input.
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { expect } from "vitest";
import { analyzeSpan } from "@/lib/evidence/analyze";
import type { SpanAnalysis } from "@/lib/evidence/types";
import type { ImportResult, ImportWindow, ImportedSession, ImportedSpan, TranscriptImporter } from "./types";
import type { TranscriptSource } from "./source";
import { assembleWindows } from "./windows";

/** A fixture's bytes; one kept gzip-compressed (`.gz`) is given as the file it holds. */
export function fixture(name: string): Uint8Array {
  const raw = readFileSync(new URL(`../fixtures/${name}`, import.meta.url));
  return new Uint8Array(name.endsWith(".gz") ? gunzipSync(raw) : raw);
}

export function text(span: ImportedSpan | undefined): string {
  if (!span) throw new Error("no such span");
  return new TextDecoder().decode(span.body);
}

export function only(result: ImportResult): ImportedSession {
  expect(result.sessions).toHaveLength(1);
  return result.sessions[0]!;
}

export function kinds(session: ImportedSession): string[] {
  return session.spans.map((s) => s.kind);
}

/**
 * seq 0..n-1, valid times, compactions pointing at SUMMARY spans and at existing, distinct spans.
 * Each span is checked in plain code and handed to `expect` only when a check fails, for expect's
 * message: property tests call this on every damaged import of files of thousands of spans, and
 * three `expect` calls a span were a fifth of their time.
 */
export function expectWellFormed(result: ImportResult): void {
  expectAccounted(result);
  for (const session of result.sessions) {
    expect(session.spans.length).toBeGreaterThan(0);
    session.spans.forEach((span, i) => {
      if (span.seq !== i) expect(span.seq).toBe(i);
      if (Number.isNaN(span.occurredAt.getTime())) expect(Number.isNaN(span.occurredAt.getTime())).toBe(false);
      if (!(span.body instanceof Uint8Array)) expect(span.body).toBeInstanceOf(Uint8Array);
    });
    for (const c of session.compactions) {
      expect(session.spans[c.summarySeq]?.kind).toBe("SUMMARY");
      expect(new Set(c.replacedSeqs).size).toBe(c.replacedSeqs.length);
      for (const seq of c.replacedSeqs) {
        expect(seq).not.toBe(c.summarySeq);
        expect(session.spans[seq]).toBeDefined();
      }
    }
  }
  for (const issue of result.issues) {
    expect(issue.line).toBeGreaterThanOrEqual(0);
    expect(issue.message.length).toBeGreaterThan(0);
  }
}

/** The same bytes with one byte changed. */
export function withByte(bytes: Uint8Array, index: number, value: number): Uint8Array {
  const copy = bytes.slice();
  copy[index] = value;
  return copy;
}

/** Byte offset of the start of 1-based line `line`. */
export function lineStart(bytes: Uint8Array, line: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) offset = bytes.indexOf(0x0a, offset) + 1;
  return offset;
}

/** What an evidence question over an import could answer, as far as the import decides it. */
export type ImportVerdict = "YES" | "NO" | "INSUFFICIENT_EVIDENCE";

/**
 * The answer a question whose evidence is "a span for which `matches` holds" would get over this
 * import alone: YES when a span matches (analysed as ingest analyses it), NO only when nothing
 * matches and nothing was skipped, else INSUFFICIENT_EVIDENCE. A property test corrupts records of
 * a real file and asserts the full file's YES never becomes NO.
 */
/**
 * An imported span analysed as ingest analyses it (its own cwd, else its session's). analyzeSpan is
 * a pure function of these fields, so an analysis is kept for the same fields and bytes seen again:
 * property tests import a file hundreds of times with a record or two damaged, and analysing the
 * same untouched spans again was most of their time (two thirds of a run over a real Codex rollout).
 */
export function analyzeImportedSpan(span: ImportedSpan, session: ImportedSession): SpanAnalysis {
  const cwd = span.cwd ?? session.cwd;
  const key =
    JSON.stringify([span.kind, span.role, span.toolName, span.toolInput, span.exitCode, cwd]) +
    Buffer.from(span.body.buffer, span.body.byteOffset, span.body.byteLength).toString("latin1");
  const known = analysed.get(key);
  if (known) return known;
  const analysis = analyzeFields(span, cwd);
  if (analysed.size >= 50_000) analysed.clear();
  analysed.set(key, analysis);
  return analysis;
}

/** Analyses by their fields (kind, role, tool, input, exit code, cwd) and bytes. */
const analysed = new Map<string, SpanAnalysis>();

function analyzeFields(span: ImportedSpan, cwd: string | undefined): SpanAnalysis {
  return analyzeSpan({
    body: span.body,
    kind: span.kind,
    ...(span.role !== undefined ? { role: span.role } : {}),
    ...(span.toolName !== undefined ? { toolName: span.toolName } : {}),
    ...(span.toolInput !== undefined ? { toolInput: span.toolInput } : {}),
    ...(span.exitCode !== undefined ? { exitCode: span.exitCode } : {}),
    ...(cwd !== undefined ? { cwd } : {}),
  });
}

export function verdictOf(
  result: ImportResult,
  matches: (span: ImportedSpan, analysis: SpanAnalysis, session: ImportedSession) => boolean,
): ImportVerdict {
  for (const session of result.sessions) {
    for (const span of session.spans) {
      const analysis = analyzeImportedSpan(span, session);
      if (matches(span, analysis, session)) return "YES";
    }
  }
  const incomplete = result.records.skipped > 0 || result.sessions.some((s) => s.skipped.length > 0);
  return incomplete ? "INSUFFICIENT_EVIDENCE" : "NO";
}

/** A side-effect atom (write, delete, install...) whose normalised value starts with `prefix`. */
export function effectOn(prefix: string) {
  return (_span: ImportedSpan, analysis: SpanAnalysis) =>
    analysis.atoms.some((a) => a.effect !== undefined && !a.negated && a.normalized.startsWith(prefix));
}

/** The accounting identity every import must satisfy. */
export function expectAccounted(result: ImportResult): void {
  const r = result.records;
  expect(r.read).toBe(r.used + r.ignored + r.skipped);
  expect(Object.values(r.ignoredByType).reduce((n, c) => n + c, 0)).toBe(r.ignored);
  expect(result.issues.filter((i) => /not accounted for/.test(i.message))).toEqual([]);
}

/**
 * The importer's windows with the smallest window (one cut at every point the reader allows),
 * concatenated, next to the whole file's parse: the two must be equal, and so must the windows of
 * the file read in small chunks (as a spooled upload is). Returns the whole parse and how many
 * windows the file was cut into.
 */
export function parseBothWays(importer: TranscriptImporter, bytes: Uint8Array): { whole: ImportResult; windows: number } {
  const whole = importer.parse(bytes);
  if (!importer.windows) throw new Error(`${importer.format} does not read in windows`);
  let count = 0;
  for (const input of [bytes, chunked(bytes, 4093)]) {
    const taken: ImportWindow[] = [];
    const windows = importer.windows(input, 1);
    let step = windows.next();
    for (; !step.done; step = windows.next()) taken.push(step.value);
    const windowed = assembleWindows(taken, step.value);
    // Compared in plain code first (fast, bodies included); a difference is shown field by field.
    if (!sameValue(windowed, whole)) expect(windowed).toEqual(whole);
    count = taken.length;
  }
  return { whole, windows: count };
}

/** The bytes as a file read `size` bytes at a time. */
export function chunked(bytes: Uint8Array, size: number): TranscriptSource {
  return {
    byteLength: bytes.length,
    *chunks() {
      for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
    },
  };
}

/**
 * Equal in every field, byte for byte, for the plain data an import is (objects, arrays, bytes,
 * dates, primitives; a property holding undefined counts as absent, as for toEqual). Anything
 * else counts as different, and the caller's toEqual then decides: true here always means toEqual
 * passes. Several times faster than comparing JSON texts, which property tests did on every run.
 */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (a instanceof Uint8Array) return b instanceof Uint8Array && Buffer.compare(a, b) === 0;
  if (a instanceof Date) return b instanceof Date && a.getTime() === b.getTime();
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  const plain = (o: object) => [Object.prototype, null].includes(Object.getPrototypeOf(o));
  if (Array.isArray(b) || !plain(a) || !plain(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x).filter((k) => x[k] !== undefined);
  if (keys.length !== Object.keys(y).filter((k) => y[k] !== undefined).length) return false;
  return keys.every((k) => Object.hasOwn(y, k) && sameValue(x[k], y[k]));
}

/** The importer's parse, checked against its smallest windows on every call. */
export function checkedAgainstWindows(importer: TranscriptImporter): (bytes: Uint8Array) => ImportResult {
  return (bytes) => parseBothWays(importer, bytes).whole;
}

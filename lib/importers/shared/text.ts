/** Small text helpers every importer shares: UTF-8, timestamps, content-derived ids, titles. */
import { chunksOf, type TranscriptBytes } from "./source";

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder("utf-8", { fatal: true });

export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** The text of UTF-8 bytes, or undefined when they are not valid UTF-8 (never replaced silently). */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return undefined;
  }
}

// An ISO date-time without a zone designator (OpenHands writes these). Read as UTC so an import
// gives the same instants on every machine.
const NAIVE_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/**
 * A record's time: ISO 8601 strings (with or without zone), or epoch numbers in seconds or
 * milliseconds. Undefined when the value is missing or not a time.
 */
export function parseTimestamp(value: unknown): Date | undefined {
  if (typeof value === "string") {
    const text = NAIVE_ISO.test(value) ? `${value}Z` : value;
    const ms = Date.parse(text);
    return Number.isNaN(ms) ? undefined : new Date(ms);
  }
  if (typeof value === "number" && Number.isFinite(value) && value > 0) {
    // Below 1e11 an epoch value is in seconds (1e11 s is the year 5138); above, milliseconds.
    return new Date(value < 1e11 ? value * 1000 : value);
  }
  return undefined;
}

/** OTLP times: nanoseconds since the epoch, as a decimal string or a number. */
export function parseUnixNanos(value: unknown): Date | undefined {
  if (typeof value !== "string" && typeof value !== "number") return undefined;
  const text = String(value);
  if (!/^\d+$/.test(text) || text === "0") return undefined;
  // Milliseconds are the first digits; dropping the last six avoids float rounding on big values.
  const ms = text.length > 6 ? Number(text.slice(0, -6)) : 0;
  return new Date(ms);
}

/**
 * A stable id for a transcript whose format carries none (cyrb53 twice, ~106 bits): importing
 * the same file again yields the same session instead of a duplicate. Not a security hash.
 */
export function contentId(bytes: TranscriptBytes): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  let h3 = 0x9e3779b9;
  let h4 = 0x85ebca6b;
  for (const chunk of chunksOf(bytes)) {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      h1 = Math.imul(h1 ^ b, 2654435761);
      h2 = Math.imul(h2 ^ b, 1597334677);
      h3 = Math.imul(h3 ^ b, 2246822507);
      h4 = Math.imul(h4 ^ b, 3266489909);
    }
  }
  const mix = (a: number, b: number) => {
    a = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
    return (a >>> 0).toString(16).padStart(8, "0");
  };
  return mix(h1, h2) + mix(h2, h1) + mix(h3, h4) + mix(h4, h3);
}

/**
 * `contentId(bytes)`, computed on first use only: most files name their sessions, and hashing a
 * 50 MB file byte by byte costs 0.3 to 0.7 s of CPU for an id nobody reads.
 */
export function lazyContentId(bytes: TranscriptBytes): () => string {
  let id: string | undefined;
  return () => {
    id ??= contentId(bytes);
    return id;
  };
}

/** A short session title from a user's first message: its first line, capped. */
export function titleFrom(text: string, max = 120): string | undefined {
  const line = text
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  if (line === undefined) return undefined;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Runtime-injected context (environment blocks, instructions) that should not title a session. */
export function looksInjected(text: string): boolean {
  return /^\s*<[a-z_-]+>/i.test(text) || /^\s*#\s*AGENTS\.md/i.test(text);
}

/** Length of a UTF-8 byte order mark opening the bytes (0 or 3): it is not part of any record. */
export function bomLength(bytes: Uint8Array): number {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

/** Text of a value that is a string, or undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

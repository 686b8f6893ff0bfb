/**
 * Jaeger JSON key/value lists (a span's `tags`, a log's `fields`, a process's `tags`): entries of
 * `{key, type, value}` whose type is one of Jaeger's value types (string, bool, int64, float64,
 * binary), decoded to the plain values OTLP attributes decode to (see ./values).
 */
import { isRecord } from "../shared/text";

/** A key/value list as a map, or why it cannot be read (an entry dropped would lose content). */
export type TagsRead = { ok: true; map: Map<string, unknown> } | { ok: false; error: string };

/**
 * A value as its Jaeger type says. int64 and float64 may arrive as numbers or decimal strings;
 * int64 beyond 2^53 stays a string, as OTLP's intValue does; binary stays base64.
 */
function tagValue(type: string, value: unknown): { ok: true; value: unknown } | { ok: false } {
  switch (type) {
    case "string":
    case "binary":
      return typeof value === "string" ? { ok: true, value } : { ok: false };
    case "bool":
      return typeof value === "boolean" ? { ok: true, value } : { ok: false };
    case "int64": {
      if (typeof value === "number" && Number.isInteger(value)) return { ok: true, value };
      if (typeof value !== "string" || !/^-?\d+$/.test(value)) return { ok: false };
      const n = Number(value);
      return { ok: true, value: Number.isSafeInteger(n) ? n : value };
    }
    case "float64": {
      const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
      return Number.isFinite(n) ? { ok: true, value: n } : { ok: false };
    }
    default:
      return { ok: false };
  }
}

/** Reads a Jaeger key/value list; absent means empty, anything not a list of typed entries is an error. */
export function readTags(list: unknown, name: string): TagsRead {
  const map = new Map<string, unknown>();
  if (list === undefined || list === null) return { ok: true, map };
  if (!Array.isArray(list)) return { ok: false, error: `${name} that are not a list` };
  for (const entry of list) {
    if (!isRecord(entry) || typeof entry.key !== "string")
      return { ok: false, error: `an entry of its ${name} without a string key` };
    const value = entry.value;
    // Without a type, a plain value is taken as it is.
    const decoded =
      typeof entry.type === "string"
        ? tagValue(entry.type.toLowerCase(), value)
        : entry.type === undefined && ["string", "number", "boolean"].includes(typeof value)
          ? { ok: true as const, value }
          : { ok: false as const };
    if (!decoded.ok)
      return { ok: false, error: `${name} entry "${entry.key}" whose value is not of its type ${String(entry.type)}` };
    map.set(entry.key, decoded.value);
  }
  return { ok: true, map };
}

/** Microseconds (Jaeger's unit) as nanoseconds; undefined when absent, negative or not a number. */
export function micros(value: unknown): bigint | undefined {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(n) || n < 0) return undefined;
  return BigInt(Math.round(n)) * 1000n;
}

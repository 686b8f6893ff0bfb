/**
 * OTLP/JSON value decoding: attribute lists of `{key, value: AnyValue}` into plain JS values, and
 * the nanosecond timestamps OTLP writes as decimal strings.
 */
import { isRecord } from "../shared/text";

/**
 * An OTLP AnyValue as a JS value. 64-bit integers arrive as strings (protobuf JSON); they become
 * numbers when exact, else stay strings. Bytes stay base64.
 */
export function anyValue(v: unknown): unknown {
  if (!isRecord(v)) return undefined;
  if ("stringValue" in v) return typeof v.stringValue === "string" ? v.stringValue : undefined;
  if ("boolValue" in v) return typeof v.boolValue === "boolean" ? v.boolValue : undefined;
  if ("intValue" in v) {
    const n = typeof v.intValue === "number" ? v.intValue : typeof v.intValue === "string" ? Number(v.intValue) : NaN;
    if (!Number.isFinite(n)) return undefined;
    return Number.isSafeInteger(n) ? n : String(v.intValue);
  }
  if ("doubleValue" in v) return typeof v.doubleValue === "number" ? v.doubleValue : Number(v.doubleValue);
  if ("arrayValue" in v) {
    const values = isRecord(v.arrayValue) && Array.isArray(v.arrayValue.values) ? v.arrayValue.values : [];
    return values.map(anyValue);
  }
  if ("kvlistValue" in v) {
    const values = isRecord(v.kvlistValue) && Array.isArray(v.kvlistValue.values) ? v.kvlistValue.values : [];
    return Object.fromEntries(attributeMap(values));
  }
  if ("bytesValue" in v) return typeof v.bytesValue === "string" ? v.bytesValue : undefined;
  return undefined;
}

/** `[{key, value}]` as a map; entries without a string key are dropped (they name nothing). */
export function attributeMap(list: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!Array.isArray(list)) return out;
  for (const entry of list) {
    if (isRecord(entry) && typeof entry.key === "string") out.set(entry.key, anyValue(entry.value));
  }
  return out;
}

/** Nanoseconds since the epoch as a bigint (for exact ordering), or undefined. */
export function nanos(value: unknown): bigint | undefined {
  if (typeof value === "number" && Number.isFinite(value) && value > 0) return BigInt(Math.round(value));
  if (typeof value === "string" && /^\d+$/.test(value) && value !== "0") return BigInt(value);
  return undefined;
}

/** A JSON-string attribute parsed, the value itself when already structured, or an error. */
export function jsonAttribute(value: unknown): { ok: true; value: unknown } | { ok: false; error: string } {
  if (typeof value !== "string") return { ok: true, value };
  try {
    return { ok: true, value: JSON.parse(value) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

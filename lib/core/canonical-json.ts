/**
 * Canonical JSON: one text per value however it was built, so equal values compare and hash alike.
 * An export's hash is taken over it (written as a stream of chunks so a document with tens of
 * thousands of citations is never one string in memory); stored verdicts are keyed by it; a stored
 * (jsonb) value and a sent one compare by it.
 *
 * Canonical form (the JSON Canonicalization Scheme, RFC 8785, for the values an export holds):
 * - object keys sorted by their UTF-16 code units (JavaScript's default sort), recursively;
 *   members whose value is undefined are left out, as JSON.stringify does;
 * - no whitespace anywhere;
 * - strings, numbers, true, false and null written as JSON.stringify writes them (finite numbers
 *   only; dates as their ISO string via toJSON);
 * - the text encoded as UTF-8.
 * exportSha256 is the SHA-256, in lowercase hex, of that text for the document without its
 * exportSha256 member. Any JCS implementation over the parsed file, minus that member, gives the
 * same bytes.
 */
import { createHash } from "node:crypto";

/** The canonical text of a JSON value, in chunks (about one per array element). */
export function* canonicalChunks(value: unknown): Generator<string> {
  const v = value !== null && typeof value === "object" && "toJSON" in value ? (value as { toJSON(): unknown }).toJSON() : value;
  if (v === null || typeof v === "boolean" || typeof v === "string") {
    yield JSON.stringify(v);
    return;
  }
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new TypeError(`Canonical JSON has no form for ${v}`);
    yield JSON.stringify(v);
    return;
  }
  if (Array.isArray(v)) {
    yield "[";
    for (let i = 0; i < v.length; i++) {
      if (i > 0) yield ",";
      // A missing element is null, as JSON.stringify writes it.
      yield* canonicalChunks(v[i] === undefined ? null : v[i]);
    }
    yield "]";
    return;
  }
  if (typeof v === "object") {
    if (ArrayBuffer.isView(v)) throw new TypeError("Canonical JSON has no form for bytes: encode them as base64 first");
    const keys = Object.keys(v as object)
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .sort();
    yield "{";
    for (let i = 0; i < keys.length; i++) {
      yield `${i > 0 ? "," : ""}${JSON.stringify(keys[i])}:`;
      yield* canonicalChunks((v as Record<string, unknown>)[keys[i]!]);
    }
    yield "}";
    return;
  }
  throw new TypeError(`Canonical JSON has no form for a ${typeof v}`);
}

/** The whole canonical text (for small values and tests). */
export function canonicalJson(value: unknown): string {
  let text = "";
  for (const chunk of canonicalChunks(value)) text += chunk;
  return text;
}

/** SHA-256 (hex) of a value's canonical text, hashed chunk by chunk as it is written. */
export function canonicalSha256(value: unknown): string {
  const hash = createHash("sha256");
  for (const chunk of canonicalChunks(value)) hash.update(chunk, "utf8");
  return hash.digest("hex");
}

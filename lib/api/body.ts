import { AppError } from "@/lib/core/errors";
import { LIMITS } from "./schemas";

/** Largest request body accepted, in bytes. Documented in the README and returned in 413 errors. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/**
 * Reads the body as bytes, stopping as soon as it passes `limit` (a declared Content-Length over
 * the limit is refused before reading anything).
 */
export async function readBodyBytes(request: Request, limit = MAX_BODY_BYTES): Promise<Uint8Array> {
  const tooLarge = () =>
    new AppError("PAYLOAD_TOO_LARGE", `The request body exceeds ${limit} bytes`, { details: { maxBodyBytes: limit } });
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * A declared content type that cannot be JSON (a form, multipart, octet-stream...) is refused with
 * 415. JSON types (`application/json`, `application/*+json`) pass, and so does `text/plain` or no
 * type at all: what a plain `fetch` with a string body sends.
 */
function requireJsonContentType(request: Request): void {
  const declared = request.headers.get("content-type");
  if (!declared) return;
  const type = declared.split(";")[0]!.trim().toLowerCase();
  if (type === "application/json" || /^application\/[\w.+-]+\+json$/.test(type) || type === "text/plain") return;
  throw new AppError("UNSUPPORTED_MEDIA_TYPE", `The body must be JSON (Content-Type: application/json), not ${type}`);
}

/** Parses a JSON body; a non-JSON content type is a 415, malformed JSON or invalid UTF-8 a 400, with stable codes. */
export async function readJson(request: Request, limit = MAX_BODY_BYTES): Promise<unknown> {
  requireJsonContentType(request);
  const bytes = await readBodyBytes(request, limit);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError(
      "INVALID_JSON",
      'The body is not valid UTF-8; send binary span bodies base64-encoded with bodyEncoding "base64"',
    );
  }
  const depth = nestingDepth(text, LIMITS.maxJsonDepth);
  if (depth > LIMITS.maxJsonDepth) {
    throw new AppError("VALIDATION_FAILED", `The body's JSON is nested deeper than ${LIMITS.maxJsonDepth} levels`, {
      fields: [{ path: "(body)", message: `nested deeper than ${LIMITS.maxJsonDepth} levels` }],
      details: { maxJsonDepth: LIMITS.maxJsonDepth },
    });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError("INVALID_JSON", `The body is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * How deeply the JSON text nests objects and arrays, read before parsing (parsing a body nested a
 * million deep takes the event loop for seconds): one pass over the characters, brackets inside
 * strings skipped; stops as soon as it passes `limit`. Malformed JSON is left to the parser.
 */
export function nestingDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

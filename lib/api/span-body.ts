import { AppError } from "@/lib/core/errors";
import { LIMITS } from "./schemas";

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * A span body as the bytes it stands for. Transcript bodies need not be UTF-8, so runtimes send
 * such bodies base64-encoded; a JSON string body is taken as its UTF-8 encoding.
 */
export function decodeSpanBody(body: string, encoding: "utf8" | "base64", path: string): Uint8Array {
  let bytes: Uint8Array;
  if (encoding === "base64") {
    const compact = body.replace(/\s+/g, "");
    if (!BASE64.test(compact))
      throw new AppError("VALIDATION_FAILED", "A base64 body is malformed", { fields: [{ path, message: "not valid base64" }] });
    bytes = new Uint8Array(Buffer.from(compact, "base64"));
  } else {
    bytes = new TextEncoder().encode(body);
  }
  if (bytes.byteLength > LIMITS.maxSpanBytes) {
    throw new AppError("PAYLOAD_TOO_LARGE", `A span body exceeds ${LIMITS.maxSpanBytes} bytes`, {
      fields: [{ path, message: `${bytes.byteLength} bytes; the limit is ${LIMITS.maxSpanBytes}` }],
      details: { maxSpanBytes: LIMITS.maxSpanBytes },
    });
  }
  return bytes;
}

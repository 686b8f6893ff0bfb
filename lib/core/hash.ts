import { createHash } from "node:crypto";

/** sha256 over exactly these bytes, lower-case hex: the pointer hash of a span. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

import { createGunzip } from "node:zlib";
import { AppError } from "@/lib/core/errors";

/**
 * Inflates a gzip body as a stream, refusing it with 413 PAYLOAD_TOO_LARGE as soon as the inflated
 * bytes pass `limit`: a 248 KB body inflating to 250 MB was accepted, all of it held at once and
 * inflated in one synchronous call. Here the inflating runs off the event loop (zlib's thread pool)
 * a chunk at a time, and no more than `limit` bytes, plus the chunk that passes it, are ever held.
 * A body that is not gzip is a 400.
 */
export function gunzipWithin(bytes: Uint8Array, limit: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const gunzip = createGunzip();
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
    };
    gunzip.on("data", (chunk: Buffer) => {
      if (settled) return;
      total += chunk.byteLength;
      if (total > limit) {
        gunzip.destroy();
        settle(() =>
          reject(
            new AppError("PAYLOAD_TOO_LARGE", `The request body inflates past ${limit} bytes`, {
              details: { maxBodyBytes: limit, inflatedBytes: total },
            }),
          ),
        );
        return;
      }
      chunks.push(chunk);
    });
    gunzip.on("error", (error) =>
      settle(() => reject(new AppError("INVALID_REQUEST", `The gzip body cannot be inflated: ${error.message}`))),
    );
    gunzip.on("end", () => settle(() => resolve(Buffer.concat(chunks, total))));
    gunzip.end(bytes);
  });
}

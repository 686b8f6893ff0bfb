/**
 * An original's bytes as an HTTP response, for the API (`GET /api/v1/spans/{id}/original`) and the
 * dashboard's raw-bytes link alike: streamed a chunk at a time as the client reads (never held
 * whole), one byte range when `Range` asks for it (206), the whole original's sha256 in headers.
 * Never rendered by a browser: the bytes are the agent's, whatever they hold.
 */
import { type HeldOriginal, originalChunks } from "@/lib/server/provenance";
import { requestedRange } from "./byte-range";

export function originalResponse(original: HeldOriginal, rangeHeader: string | null, extraHeaders: Record<string, string> = {}) {
  const range = requestedRange(rangeHeader, original.byteLength);
  const { start, end } = range ?? { start: 0, end: original.byteLength };
  const chunks = originalChunks(original, start, end);
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(body, {
    status: range ? 206 : 200,
    headers: {
      "Content-Type": "application/octet-stream",
      "Content-Length": String(end - start),
      ...(range ? { "Content-Range": `bytes ${start}-${end - 1}/${original.byteLength}` } : {}),
      "Accept-Ranges": "bytes",
      "X-Custodian-Sha256": original.sha256,
      "Repr-Digest": `sha-256=:${Buffer.from(original.sha256, "hex").toString("base64")}:`,
      ...(original.expiresAt ? { "X-Custodian-Expires-At": original.expiresAt.toISOString() } : {}),
      "X-Custodian-Pinned": String(original.pinned),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      ...extraHeaders,
    },
  });
}

/**
 * A transcript file as a request sends it, read once with a size limit: a small one into memory
 * for an import inside the request, a larger one written to a temporary file as it arrives, which
 * the import job reads when its turn comes (a queued import holds no memory).
 */
import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { AppError } from "@/lib/core/errors";

export type ReceivedFile = { kind: "memory"; bytes: Uint8Array } | { kind: "spooled"; file: string; byteLength: number };

/**
 * Reads `body` up to `limit` bytes (a declared length over it is refused before reading): into
 * memory while it stays within `inMemory` bytes, to a temporary file once it passes them.
 */
export async function receiveFile(
  body: ReadableStream<Uint8Array> | null,
  declaredLength: number | undefined,
  limit: number,
  inMemory: number,
): Promise<ReceivedFile> {
  const tooLarge = () =>
    new AppError("PAYLOAD_TOO_LARGE", `The request body exceeds ${limit} bytes`, { details: { maxBodyBytes: limit } });
  if (declaredLength !== undefined && declaredLength > limit) throw tooLarge();
  if (!body) return { kind: "memory", bytes: new Uint8Array() };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let file: { name: string; out: ReturnType<typeof createWriteStream> } | null = null;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) throw tooLarge();
      if (!file && total <= inMemory) {
        chunks.push(value);
        continue;
      }
      if (!file) {
        const name = path.join(tmpdir(), `custodian-import-${randomUUID()}`);
        file = { name, out: createWriteStream(name, { mode: 0o600 }) };
        for (const chunk of chunks.splice(0)) await write(file.out, chunk);
      }
      await write(file.out, value);
    }
  } catch (error) {
    await reader.cancel().catch(() => {});
    if (file) {
      file.out.destroy();
      await rm(file.name, { force: true });
    }
    throw error;
  }
  if (file) {
    await new Promise<void>((resolve, reject) => file.out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    return { kind: "spooled", file: file.name, byteLength: total };
  }
  const bytes = chunks.length === 1 ? chunks[0]! : new Uint8Array(total);
  if (chunks.length !== 1) {
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
  }
  return { kind: "memory", bytes };
}

function write(out: ReturnType<typeof createWriteStream>, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => out.write(chunk, (error) => (error ? reject(error) : resolve())));
}

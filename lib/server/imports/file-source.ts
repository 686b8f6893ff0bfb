/**
 * A spooled upload as the importers take it: read from its file a chunk at a time, each pass from
 * the start, so an import holds a chunk of the file rather than all of it.
 */
import { closeSync, openSync, readSync } from "node:fs";
import type { TranscriptBytes, TranscriptSource } from "@/lib/importers";

const CHUNK_BYTES = 1 << 20;

/** A source that is a file, which a worker thread can open itself rather than be sent its bytes. */
export interface FileSource extends TranscriptSource {
  readonly spooled: { file: string; byteLength: number };
}

export function fileSource(file: string, byteLength: number, chunkBytes = CHUNK_BYTES): FileSource {
  return {
    byteLength,
    spooled: { file, byteLength },
    *chunks() {
      const fd = openSync(file, "r");
      try {
        for (;;) {
          // A fresh chunk each time: lines handed out are views of it (never a Buffer, whose slice()
          // would share memory where the importers expect a copy).
          const chunk = new Uint8Array(chunkBytes);
          const read = readSync(fd, chunk, 0, chunkBytes, null);
          if (read === 0) return;
          yield read === chunkBytes ? chunk : chunk.slice(0, read);
        }
      } finally {
        closeSync(fd);
      }
    },
  };
}

export function isFileSource(input: TranscriptBytes): input is FileSource {
  return !(input instanceof Uint8Array) && "spooled" in input;
}

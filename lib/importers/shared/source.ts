/**
 * A transcript's bytes as a reader takes them: in memory, or (for a large upload) a file read a
 * chunk at a time by whoever owns the file, so that an import holds a chunk of the file, not all
 * of it. Readers that go over the file twice ask for its chunks twice.
 */
export interface TranscriptSource {
  readonly byteLength: number;
  /**
   * The bytes from the start, in order. Each chunk is the reader's to keep: the source never
   * writes into a chunk it has handed out (a line may be kept as a view of one).
   */
  chunks(): Iterable<Uint8Array>;
}

export type TranscriptBytes = Uint8Array | TranscriptSource;

/** The first `size` bytes (fewer when the file is shorter), for detecting the format. */
export function headBytes(input: TranscriptBytes, size: number): Uint8Array {
  if (input instanceof Uint8Array) return input.subarray(0, size);
  const parts: Uint8Array[] = [];
  let have = 0;
  for (const chunk of input.chunks()) {
    parts.push(chunk.subarray(0, size - have));
    have += parts.at(-1)!.byteLength;
    if (have >= size) break;
  }
  return concat(parts, have);
}

/**
 * Every byte at once, for the formats that read a whole document: one buffer of the file's size,
 * each chunk copied in as it is read (never the chunks and their copy at once).
 */
export function wholeBytes(input: TranscriptBytes): Uint8Array {
  if (input instanceof Uint8Array) return input;
  let out = new Uint8Array(input.byteLength);
  let at = 0;
  for (const chunk of input.chunks()) {
    if (at + chunk.byteLength > out.byteLength) {
      // The file grew after its size was taken: make room rather than lose its end.
      const grown = new Uint8Array(Math.max(out.byteLength * 2, at + chunk.byteLength));
      grown.set(out.subarray(0, at));
      out = grown;
    }
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return at === out.byteLength ? out : out.subarray(0, at);
}

/** The chunks of either kind of input. */
export function chunksOf(input: TranscriptBytes): Iterable<Uint8Array> {
  return input instanceof Uint8Array ? [input] : input.chunks();
}

export function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

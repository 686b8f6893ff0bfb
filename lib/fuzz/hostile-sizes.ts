/**
 * Large-body kinds for the fuzz run, each at the smallest size that crosses its limit (so a run
 * stays quick): a transcript with one record just over the cap on a span's body, a span batch whose
 * one body is just over it, and hostile Range headers for the routes that serve an original.
 */
import { MAX_SPAN_BODY_BYTES } from "@/lib/core/limits";
import type { Rng } from "./hostile";

let transcript: Uint8Array<ArrayBuffer> | undefined;
let batch: string | undefined;

/** A Claude Code transcript: one ordinary user record, then one whose text is one byte over the cap. */
export function overCapTranscript(): Uint8Array<ArrayBuffer> {
  if (transcript) return transcript;
  const record = (uuid: string, text: string) =>
    `{"type":"user","sessionId":"fuzz-over-cap","uuid":"${uuid}","timestamp":"2026-11-30T10:00:00.000Z","message":{"role":"user","content":"${text}"}}\n`;
  const text = `${record("fuzz-1", "rm -rf /etc/app")}${record("fuzz-2", "x".repeat(MAX_SPAN_BODY_BYTES + 1))}`;
  transcript = new TextEncoder().encode(text);
  return transcript;
}

/** A span batch whose one body is one byte over the cap (the request itself well within its limit). */
export function overCapSpanBatch(): string {
  batch ??= JSON.stringify({
    spans: [{ seq: 900_000, kind: "MESSAGE", occurredAt: "2026-11-30T10:00:00Z", body: "y".repeat(MAX_SPAN_BODY_BYTES + 1) }],
  });
  return batch;
}

/** A Range header, valid or not, for a GET. */
export function hostileRange(rng: Rng): string {
  return rng.pick([
    "bytes=0-0",
    "bytes=0-",
    "bytes=-1",
    "bytes=-0",
    "bytes=5-1",
    "bytes=0-99999999999999999999",
    "bytes=99999999999999999999-",
    `bytes=${MAX_SPAN_BODY_BYTES}-`,
    "bytes=0-1,3-4",
    "bytes=-",
    "bytes=abc",
    "items=0-10",
    "bytes = 0-1",
    "",
  ]);
}

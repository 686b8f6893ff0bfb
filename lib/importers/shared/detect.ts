/**
 * Which transcript format a file is, from its first few kilobytes: every importer scores the
 * head, and the highest score of at least DETECT_THRESHOLD wins. Scores rather than a first match,
 * because a transcript may quote another format's text (a Claude Code session that ran `codex`).
 */
import type { ImportFormat, TranscriptImporter } from "./types";

/** How much of the file detection reads. */
export const DETECT_HEAD_BYTES = 8192;

/** The score below which a file is not taken for a format. */
export const DETECT_THRESHOLD = 0.5;

/** The start of the file as text; a multi-byte character cut at the edge is simply replaced. */
export function headOf(bytes: Uint8Array, size = DETECT_HEAD_BYTES): string {
  return new TextDecoder("utf-8").decode(bytes.subarray(0, size));
}

export interface Detection {
  format: ImportFormat | null;
  scores: Array<{ format: ImportFormat; score: number }>;
}

export function detectWith(importers: readonly TranscriptImporter[], bytes: Uint8Array): Detection {
  const head = headOf(bytes);
  const scores = importers
    .map((importer) => ({ format: importer.format, score: Math.max(0, Math.min(1, importer.detect(head))) }))
    .sort((a, b) => b.score - a.score);
  const best = scores[0];
  return { format: best && best.score >= DETECT_THRESHOLD ? best.format : null, scores };
}

/** What an unrecognised file looked like, in words, for the error that refuses it. */
export function describeHead(bytes: Uint8Array): string {
  if (bytes.length === 0) return "an empty file";
  const head = headOf(bytes, 2048).replace(/^\uFEFF/, "");
  const trimmed = head.trimStart();
  if (trimmed === "") return "a file of white space only";
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    const firstLine = trimmed.split("\n", 1)[0]!;
    const keys = [...firstLine.matchAll(/"([^"\\]{1,40})"\s*:/g)].map((m) => m[1]!);
    const unique = [...new Set(keys)].slice(0, 8);
    const shape = trimmed.startsWith("[") ? "a JSON array" : "JSON";
    return unique.length > 0 ? `${shape} whose first record has the keys ${unique.join(", ")}` : shape;
  }
  const preview = trimmed.slice(0, 60).replace(/\s+/g, " ").trimEnd();
  return `text beginning "${preview}${trimmed.length > 60 ? "…" : ""}"`;
}

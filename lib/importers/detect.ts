/**
 * Which transcript format a file is, from its first few kilobytes. The checks are ordered from
 * the most to the least specific shape, because a transcript may quote another format's text.
 */
import { claudeCodeImporter } from "./claude-code";
import { codexImporter } from "./codex";
import { openHandsImporter } from "./openhands";
import { otelGenAiImporter } from "./otel-genai";
import type { ImportFormat, TranscriptImporter } from "./types";

/** How much of the file detection reads. */
export const DETECT_HEAD_BYTES = 8192;

const BY_SPECIFICITY: readonly TranscriptImporter[] = [otelGenAiImporter, codexImporter, claudeCodeImporter, openHandsImporter];

/** The start of the file as text; a multi-byte character cut at the edge is simply replaced. */
export function headOf(bytes: Uint8Array, size = DETECT_HEAD_BYTES): string {
  return new TextDecoder("utf-8").decode(bytes.subarray(0, size));
}

export function detectFormat(bytes: Uint8Array): ImportFormat | null {
  const head = headOf(bytes);
  return BY_SPECIFICITY.find((importer) => importer.detect(head))?.format ?? null;
}

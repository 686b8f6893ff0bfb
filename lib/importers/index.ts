/**
 * Transcript importers: one module per runtime's format, each mapping a file's bytes into the
 * same normalised sessions and spans (see ./types). Pure functions of the bytes: no I/O.
 */
import { claudeCodeImporter } from "./claude-code";
import { codexImporter } from "./codex";
import { detectFormat } from "./detect";
import { openHandsImporter } from "./openhands";
import { otelGenAiImporter } from "./otel-genai";
import { IMPORT_FORMATS, type ImportFormat, type ImportResult, type TranscriptImporter } from "./types";

export const IMPORTERS: Readonly<Record<ImportFormat, TranscriptImporter>> = {
  "claude-code": claudeCodeImporter,
  codex: codexImporter,
  openhands: openHandsImporter,
  "otel-genai": otelGenAiImporter,
};

/** Thrown when no format is given and the file matches none; callers can map it to a 4xx. */
export class UnknownTranscriptFormatError extends Error {
  readonly code = "UNKNOWN_TRANSCRIPT_FORMAT";

  constructor(message: string) {
    super(message);
    this.name = "UnknownTranscriptFormatError";
  }
}

/** Imports with the given format, or the detected one; throws when neither is known. */
export function importTranscript(bytes: Uint8Array, format?: ImportFormat): ImportResult {
  if (format !== undefined && !(IMPORT_FORMATS as readonly string[]).includes(format)) {
    throw new UnknownTranscriptFormatError(`Unknown transcript format "${String(format)}"; expected one of ${IMPORT_FORMATS.join(", ")}`);
  }
  const chosen = format ?? detectFormat(bytes);
  if (chosen === null) {
    throw new UnknownTranscriptFormatError(
      `Could not tell the transcript format from the start of the file; pass one of ${IMPORT_FORMATS.join(", ")} explicitly`,
    );
  }
  return IMPORTERS[chosen].parse(bytes);
}

export { detectFormat } from "./detect";
export { IMPORT_FORMATS } from "./types";
export type { ImportFormat, ImportIssue, ImportResult, ImportedCompaction, ImportedSession, ImportedSpan, TranscriptImporter } from "./types";

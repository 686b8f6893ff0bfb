/**
 * Transcript importers: one module per runtime's format, each mapping a file's bytes into the
 * same normalised sessions and spans (see ./types). Pure functions of the bytes: no I/O.
 */
import { aiderImporter } from "./aider";
import { claudeCodeImporter } from "./claude-code";
import { codexImporter } from "./codex";
import { describeHead, detectWith } from "./detect";
import { geminiCliImporter } from "./gemini-cli";
import { openHandsImporter } from "./openhands";
import { otelGenAiImporter } from "./otel-genai";
import { sweAgentImporter } from "./swe-agent";
import { IMPORT_FORMATS, type ImportFormat, type ImportResult, type TranscriptImporter } from "./types";

export const IMPORTERS: Readonly<Record<ImportFormat, TranscriptImporter>> = {
  aider: aiderImporter,
  "claude-code": claudeCodeImporter,
  codex: codexImporter,
  "gemini-cli": geminiCliImporter,
  openhands: openHandsImporter,
  "otel-genai": otelGenAiImporter,
  "swe-agent": sweAgentImporter,
};

/** Why a file could not be imported; `code` is the API's error code for it. */
export class TranscriptImportError extends Error {
  constructor(
    readonly code: "UNSUPPORTED_FORMAT" | "UNKNOWN_TRANSCRIPT_FORMAT" | "NO_SESSIONS_FOUND",
    message: string,
  ) {
    super(message);
    this.name = "TranscriptImportError";
  }
}

export function detectFormat(bytes: Uint8Array): ImportFormat | null {
  return detectWith(Object.values(IMPORTERS), bytes).format;
}

/**
 * Imports with the given format, or the detected one. Throws UNKNOWN_TRANSCRIPT_FORMAT for a format
 * name that does not exist, UNSUPPORTED_FORMAT when no format was given and the file matches none
 * (naming the supported ones and what the file looked like), and NO_SESSIONS_FOUND when a forced
 * format finds no session in the file.
 */
export function importTranscript(bytes: Uint8Array, format?: ImportFormat): ImportResult {
  if (format !== undefined && !(IMPORT_FORMATS as readonly string[]).includes(format)) {
    throw new TranscriptImportError(
      "UNKNOWN_TRANSCRIPT_FORMAT",
      `Unknown transcript format "${String(format)}"; expected one of ${IMPORT_FORMATS.join(", ")}`,
    );
  }
  const chosen = format ?? detectFormat(bytes);
  if (chosen === null) {
    throw new TranscriptImportError(
      "UNSUPPORTED_FORMAT",
      `Not a supported transcript: the file is ${describeHead(bytes)}. Supported formats: ${IMPORT_FORMATS.join(", ")}`,
    );
  }
  const result = IMPORTERS[chosen].parse(bytes);
  if (format !== undefined && result.sessions.length === 0) {
    throw new TranscriptImportError(
      "NO_SESSIONS_FOUND",
      `No ${format} session found in the file (${result.records.read} records read, ${result.records.skipped} skipped); is it really ${format}?`,
    );
  }
  return result;
}

export { IMPORT_FORMATS } from "./types";
export type {
  ImportFormat,
  ImportIssue,
  ImportRecords,
  ImportResult,
  ImportedCompaction,
  ImportedSession,
  ImportedSpan,
  TranscriptImporter,
} from "./types";

/**
 * Transcript importers: one module per runtime's format, each mapping a file's bytes into the
 * same normalised sessions and spans (see ./shared/types). Pure functions of the bytes: no I/O.
 */
import { aiderImporter } from "./aider";
import { claudeCodeImporter } from "./claude-code";
import { codexImporter } from "./codex";
import { DETECT_HEAD_BYTES, describeHead, detectWith } from "./shared/detect";
import { geminiCliImporter } from "./gemini-cli";
import { openHandsImporter } from "./openhands";
import { otelGenAiImporter } from "./otel-genai";
import { headBytes, type TranscriptBytes, wholeBytes } from "./shared/source";
import { sweAgentImporter } from "./swe-agent";
import { asOneWindow } from "./shared/windows";
import {
  IMPORT_FORMATS,
  type ImportFormat,
  type ImportRecords,
  type ImportResult,
  type ImportWindows,
  type TranscriptImporter,
} from "./shared/types";

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
  const importer = chooseImporter(bytes, format);
  const result = importer.parse(bytes);
  if (format !== undefined && result.sessions.length === 0) throw noSessions(format, result.records);
  return result;
}

/**
 * importTranscript in windows of at least `windowSpans` spans (see ImportWindow), for a caller that
 * writes each before reading on: Claude Code, Codex and OpenHands evaluation output read in
 * windows, a file given as a TranscriptSource a chunk at a time; the other formats, whose files
 * stay small, are one window of the whole file. Throws as importTranscript does, NO_SESSIONS_FOUND at the end.
 */
export function* importWindows(input: TranscriptBytes, format: ImportFormat | undefined, windowSpans: number): ImportWindows {
  const importer = chooseImporter(headBytes(input, DETECT_HEAD_BYTES), format);
  const end = importer.windows
    ? yield* importer.windows(input, windowSpans)
    : yield* asOneWindow(importer.parse(wholeBytes(input)), input.byteLength);
  if (format !== undefined && end.sessions.length === 0) throw noSessions(format, end.records);
  return end;
}

function noSessions(format: ImportFormat, records: ImportRecords): TranscriptImportError {
  return new TranscriptImportError(
    "NO_SESSIONS_FOUND",
    `No ${format} session found in the file (${records.read} records read, ${records.skipped} skipped); is it really ${format}?`,
  );
}

function chooseImporter(bytes: Uint8Array, format: ImportFormat | undefined): TranscriptImporter {
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
  return IMPORTERS[chosen];
}

export { IMPORT_FORMATS } from "./shared/types";
export { wholeBytes } from "./shared/source";
export type { TranscriptBytes, TranscriptSource } from "./shared/source";
export type {
  ImportEnd,
  ImportFormat,
  ImportIssue,
  ImportRecords,
  ImportResult,
  ImportedCompaction,
  ImportedSession,
  ImportedSpan,
  ImportWindow,
  ImportWindows,
  SessionHeader,
  SessionPart,
  TranscriptImporter,
} from "./shared/types";

export {
  AT_RISK_WARN_DAYS,
  loadTranscriptCursors,
  saveTranscriptCursor,
  type TranscriptAtRisk,
  type TranscriptCursorRow,
  transcriptsAtRisk,
} from "./cursors";

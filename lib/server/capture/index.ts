export {
  loadTranscriptCursors,
  saveTranscriptCursor,
  type TranscriptAtRisk,
  type TranscriptCursorRow,
  transcriptsAtRisk,
} from "./cursors";

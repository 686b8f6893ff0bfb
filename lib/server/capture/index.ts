export {
  captureHookEvent,
  HTTP_HOOK_EVENTS,
  type HttpHookEvent,
  type HttpHookInput,
  hookSyncRequest,
  type SendBatch,
} from "./hook-capture";
export { allowedTranscriptPath, hookTranscriptRoots } from "./transcript-roots";
export {
  AT_RISK_WARN_DAYS,
  loadTranscriptCursor,
  loadTranscriptCursors,
  saveTranscriptCursor,
  type TranscriptAtRisk,
  type TranscriptCursorRow,
  transcriptsAtRisk,
} from "./cursors";

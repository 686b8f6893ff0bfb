export { type AcceptedImport, acceptImport } from "./accept";
export { fileSource } from "./file-source";
export { type ImportOutcome, importTranscriptFile } from "./import-file";
export {
  failInterruptedImports,
  getImportJob,
  type ImportSlot,
  MAX_RUNNING_IMPORTS,
  QUEUE_FULL_RETRY_SECONDS,
  queuePosition,
  reserveImportSlot,
  startImportJob,
} from "./jobs";
export { IN_THREAD_OTLP_SPANS, parseOtlpOffThread, parseTranscriptOffThread } from "./parse-off-thread";
export { type ReceivedFile, receiveFile } from "./spool";

export { fileSource } from "./file-source";
export { type ImportOutcome, importTranscriptFile } from "./import-file";
export { failInterruptedImports, getImportJob, MAX_RUNNING_IMPORTS, queuePosition, startImportJob } from "./jobs";
export { type ReceivedFile, receiveFile } from "./spool";

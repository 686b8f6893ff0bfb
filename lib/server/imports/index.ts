export { type ImportOutcome, importTranscriptFile } from "./import-file";
export { failInterruptedImports, getImportJob, startImportJob } from "./jobs";

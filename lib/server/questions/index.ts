export {
  askEvidenceQuestion,
  evidenceQueriesToExplain,
  type EvidenceQueryInput,
  type EvidenceQueryResult,
  type QuestionProgress,
} from "./ask";
export {
  failInterruptedQuestionJobs,
  forgetFinishedQuestionJobs,
  QUESTION_JOB_ABANDONED_AFTER_MS,
  type QuestionJobJson,
  readQuestionJob,
} from "./jobs";
export { type AnsweredOrQueued, ANSWER_WITHIN_MS, answerOrQueue, type AskHow } from "./answer-or-queue";
export {
  type AnswerPages,
  type BlockerJson,
  type CitationJson,
  DEFAULT_PAGE_ROWS,
  type EvidenceAnswerJson,
  LIST_REACH,
  type ListWindow,
  type PageJson,
} from "./present";
export { answerAsCsv, answerAsJson, exportAsCsv } from "./export";
export { type EvidenceExport, exportEvidence, type ExportFormat } from "./export-answer";
export { type ExportSignature, type InstancePublicKey, instancePublicKey } from "./export-signing";
export {
  CUSTODIAN_VERSION,
  type EvidenceExportDocument,
  type ExportBlocker,
  type ExportCitation,
  exportStream,
} from "./export-document";
export {
  type CitationProblem,
  describeExportVerification,
  type ExportVerification,
  parseExportDocument,
  verifyExport,
} from "./export-verify";
export { evidenceQueryFromParams } from "./params";
export {
  answerEvidencePage,
  EVIDENCE_PAGE_ROWS,
  evidencePageWindows,
  evidenceQueryFromUrl,
  SAVED_PREFIX,
} from "./url-query";
export { forgetUnreadableVerdicts } from "./verdicts";
export {
  deleteSavedQuestion,
  findSavedQuestion,
  listSavedQuestions,
  SAVED_TITLE_MAX,
  type SavedQuestion,
  savedAsQuestion,
  saveQuestion,
} from "./saved";

export { type AtomAtRisk, EXPLAINED_SPANS, type ExplainedSpan, type RefusalExplanation, refusalExplanation } from "./explanation";
export {
  COMPACTION_FEED_LIMIT,
  COMPACTION_PAGE_SIZE,
  type CompactionRow,
  listCompactions,
  unaskedCompactionsSince,
} from "./list";
export { type Remedy, remediesFor, type SpanRemedies } from "./remedies";

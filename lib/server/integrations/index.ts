export { decodeTraceRequest, encodeTraceResponse, type PartialSuccess } from "./otlp-proto";
export { type OtlpReceipt, receiveOtlpTraces } from "./otlp-ingest";
export { forgetQuietOtlpSpans, releaseHeldOtlpSpans } from "./otlp-upkeep";
export { linkCompactions, type StoredSpanRef } from "./compactions";
export {
  findSession,
  type Ledger,
  LEDGER_DEFAULT_LIMIT,
  LEDGER_MAX_LIMIT,
  type LedgerEntry,
  ledgerText,
  sideEffectLedger,
} from "./ledger";
export { gateCheck } from "./gate-check";
export { type HookRefusal, type HookSyncInput, type HookSyncResult, syncHookTranscript } from "./hook-sync";

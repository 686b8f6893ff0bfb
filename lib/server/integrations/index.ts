export { decodeTraceRequest, encodeTraceResponse, type PartialSuccess } from "./otlp-proto";
export { type OtlpReceipt, receiveOtlpTraces } from "./otlp-ingest";
export { linkCompactions, type StoredSpanRef } from "./compactions";

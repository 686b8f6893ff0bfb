/**
 * The flat span records both trace readers produce (./otlp-read for OTLP/JSON, ./jaeger-read for
 * Jaeger's JSON) and the GenAI importer reads.
 */
export interface OtlpEvent {
  name: string;
  time?: bigint;
  attrs: Map<string, unknown>;
}

export type SpanKindName = "INTERNAL" | "SERVER" | "CLIENT" | "PRODUCER" | "CONSUMER" | "UNSPECIFIED";

export interface OtlpSpan {
  /** Line (JSON Lines) or 1-based ordinal of the span in the document. */
  position: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: SpanKindName;
  start?: bigint;
  end?: bigint;
  attrs: Map<string, unknown>;
  events: OtlpEvent[];
  status: "UNSET" | "OK" | "ERROR";
  /** Status ERROR or an `error.type` attribute. */
  failed: boolean;
  statusMessage?: string;
  resource: Map<string, unknown>;
}

/** A log record of a `resourceLogs` section (where event-based GenAI messages may be written). */
export interface OtlpLog {
  position: number;
  /** `eventName`, else the `event.name` attribute, else "". */
  name: string;
  traceId?: string;
  spanId?: string;
}

export interface OtlpRead {
  spans: OtlpSpan[];
  logs: OtlpLog[];
}

/**
 * OTLP/HTTP protobuf bodies, decoded with protobufjs against the OTLP trace schema
 * (opentelemetry-proto: collector/trace/v1, trace/v1, common/v1, resource/v1; Apache-2.0), and
 * turned into the OTLP/JSON mapping the GenAI importer reads: ids in hex, 64-bit integers as
 * decimal strings, enums as numbers, AnyValue as `{stringValue: ...}` and so on. Fields the schema
 * below does not name are skipped by the decoder, as protobuf requires.
 */
import protobuf from "protobufjs";

const OTLP_TRACE_PROTO = `
syntax = "proto3";
package opentelemetry.proto;

message AnyValue {
  oneof value {
    string string_value = 1;
    bool bool_value = 2;
    int64 int_value = 3;
    double double_value = 4;
    ArrayValue array_value = 5;
    KeyValueList kvlist_value = 6;
    bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
message InstrumentationScope {
  string name = 1;
  string version = 2;
  repeated KeyValue attributes = 3;
  uint32 dropped_attributes_count = 4;
}
message Resource {
  repeated KeyValue attributes = 1;
  uint32 dropped_attributes_count = 2;
}
message ResourceSpans {
  Resource resource = 1;
  repeated ScopeSpans scope_spans = 2;
  string schema_url = 3;
}
message ScopeSpans {
  InstrumentationScope scope = 1;
  repeated Span spans = 2;
  string schema_url = 3;
}
message Span {
  bytes trace_id = 1;
  bytes span_id = 2;
  string trace_state = 3;
  bytes parent_span_id = 4;
  fixed32 flags = 16;
  string name = 5;
  int32 kind = 6;
  fixed64 start_time_unix_nano = 7;
  fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9;
  uint32 dropped_attributes_count = 10;
  repeated Event events = 11;
  uint32 dropped_events_count = 12;
  repeated Link links = 13;
  uint32 dropped_links_count = 14;
  Status status = 15;
  message Event {
    fixed64 time_unix_nano = 1;
    string name = 2;
    repeated KeyValue attributes = 3;
    uint32 dropped_attributes_count = 4;
  }
  message Link {
    bytes trace_id = 1;
    bytes span_id = 2;
    string trace_state = 3;
    repeated KeyValue attributes = 4;
    uint32 dropped_attributes_count = 5;
    fixed32 flags = 6;
  }
}
message Status {
  string message = 2;
  int32 code = 3;
}
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ExportTracePartialSuccess {
  int64 rejected_spans = 1;
  string error_message = 2;
}
message ExportTraceServiceResponse { ExportTracePartialSuccess partial_success = 1; }
`;

let root: protobuf.Root | undefined;
function schema(): protobuf.Root {
  root ??= protobuf.parse(OTLP_TRACE_PROTO, { keepCase: false }).root;
  return root;
}

/** Fields holding ids: OTLP/JSON writes them in hex, not base64. */
const ID_FIELDS = new Set(["traceId", "spanId", "parentSpanId"]);

/** protobufjs' object form -> the OTLP/JSON mapping (hex ids, AnyValue bytes in base64). */
function toJsonMapping(value: unknown, key = ""): unknown {
  if (value instanceof Uint8Array)
    return ID_FIELDS.has(key) ? Buffer.from(value).toString("hex") : Buffer.from(value).toString("base64");
  if (Array.isArray(value)) return value.map((v) => toJsonMapping(v));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === "value" && typeof v === "string") continue; // protobufjs' virtual oneof name
      out[k] = toJsonMapping(v, k);
    }
    return out;
  }
  return value;
}

/** Decodes an ExportTraceServiceRequest; throws protobufjs' error for bytes that are not one. */
export function decodeTraceRequest(bytes: Uint8Array): Record<string, unknown> {
  const type = schema().lookupType("opentelemetry.proto.ExportTraceServiceRequest");
  const message = type.decode(bytes);
  const object = type.toObject(message, { longs: String, bytes: Uint8Array, defaults: false, arrays: true, oneofs: false });
  return toJsonMapping(object) as Record<string, unknown>;
}

export interface PartialSuccess {
  rejectedSpans: number;
  errorMessage: string;
}

/** An ExportTraceServiceResponse, partial_success only when something was rejected or warned about. */
export function encodeTraceResponse(partial: PartialSuccess | undefined): Uint8Array {
  const type = schema().lookupType("opentelemetry.proto.ExportTraceServiceResponse");
  const payload = partial ? { partialSuccess: { rejectedSpans: partial.rejectedSpans, errorMessage: partial.errorMessage } } : {};
  return type.encode(type.fromObject(payload)).finish();
}

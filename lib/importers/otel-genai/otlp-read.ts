/**
 * Reading OTLP/JSON trace exports into flat span records: one ExportTraceServiceRequest document
 * (`{"resourceSpans": [...]}`, or Grafana Tempo's trace download `{"batches": [...]}` of the same
 * shape), or JSON Lines of them (as the Collector's file exporter writes). A damaged document
 * still yields the spans that can be read from its span lists.
 *
 * Jaeger's JSON (`{"data": [...]}` of traces, or one trace) is read by ./jaeger-read into the
 * same span records.
 *
 * What a record is: in a document, each span (numbered by its 1-based ordinal in the document)
 * and each log record of a `resourceLogs` section (numbered after the spans); in JSON Lines, each
 * line (every span of a line shares the line's number). Each is reported to the collector as read
 * before it is handled, and skipped with its reason when it cannot be read.
 */
import type { ImportCollector } from "../shared/builder";
import { isJaegerDocument, isJaegerSpan, jaegerSpanOf, readJaegerDocument } from "./jaeger-read";
import { splitArray, skipWs } from "../shared/json-scan";
import { eachJsonLine } from "../shared/jsonl";
import { attributeMap, nanos } from "./values";
import { resourceOverLimits, spanOverLimits } from "./otlp-limits";
import type { OtlpEvent, OtlpRead, OtlpSpan, SpanKindName } from "./otlp-records";
import { bomLength, decodeUtf8, isRecord, str } from "../shared/text";

const KINDS: Record<string, SpanKindName> = {
  "1": "INTERNAL",
  "2": "SERVER",
  "3": "CLIENT",
  "4": "PRODUCER",
  "5": "CONSUMER",
  SPAN_KIND_INTERNAL: "INTERNAL",
  SPAN_KIND_SERVER: "SERVER",
  SPAN_KIND_CLIENT: "CLIENT",
  SPAN_KIND_PRODUCER: "PRODUCER",
  SPAN_KIND_CONSUMER: "CONSUMER",
};

function statusOf(code: unknown): OtlpSpan["status"] {
  if (code === 2 || code === "2" || code === "STATUS_CODE_ERROR") return "ERROR";
  if (code === 1 || code === "1" || code === "STATUS_CODE_OK") return "OK";
  return "UNSET";
}

function spanOf(
  value: unknown,
  position: number,
  resource: Map<string, unknown>,
  collector: ImportCollector,
): OtlpSpan | undefined {
  if (!isRecord(value)) {
    collector.skip(position, "span is not a JSON object; skipped");
    return undefined;
  }
  const traceId = str(value.traceId);
  const spanId = str(value.spanId);
  if (!traceId || !spanId) {
    collector.skip(position, "span without traceId and spanId; skipped");
    return undefined;
  }
  // Counted before any list is read: a span of 300,000 attributes would hold the parse for seconds.
  const over = spanOverLimits(value);
  if (over) {
    collector.skip(position, `span ${spanId} has ${over}; skipped`);
    return undefined;
  }
  const damaged = malformedList(value.attributes, "attributes") ?? malformedList(value.events, "events");
  if (damaged) {
    collector.skip(position, `span ${spanId} has ${damaged}; skipped`);
    return undefined;
  }
  const attrs = attributeMap(value.attributes);
  const status = isRecord(value.status) ? value.status : {};
  const events: OtlpEvent[] = (Array.isArray(value.events) ? value.events : []).filter(isRecord).map((e) => ({
    name: str(e.name) ?? "",
    ...(nanos(e.timeUnixNano) !== undefined ? { time: nanos(e.timeUnixNano) } : {}),
    attrs: attributeMap(e.attributes),
  }));
  const parent = str(value.parentSpanId);
  const start = nanos(value.startTimeUnixNano);
  const end = nanos(value.endTimeUnixNano);
  const code = statusOf(status.code);
  return {
    position,
    traceId,
    spanId,
    ...(parent ? { parentSpanId: parent } : {}),
    name: str(value.name) ?? "",
    kind: KINDS[String(value.kind)] ?? "UNSPECIFIED",
    ...(start !== undefined ? { start } : {}),
    ...(end !== undefined ? { end } : {}),
    attrs,
    events,
    status: code,
    failed: code === "ERROR" || attrs.has("error.type"),
    ...(str(status.message) ? { statusMessage: str(status.message) } : {}),
    resource,
  };
}

/** A span's attributes or events that are not a list of well-formed entries would lose content silently. */
function malformedList(value: unknown, name: "attributes" | "events"): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) return `${name} that are not a list`;
  for (const entry of value) {
    if (!isRecord(entry)) return `an entry of its ${name} that is not an object`;
    if (name === "attributes" && (typeof entry.key !== "string" || !isRecord(entry.value)))
      return "an attribute without a string key and an AnyValue";
    if (name === "events" && entry.attributes !== undefined && malformedList(entry.attributes, "attributes"))
      return "an event with malformed attributes";
  }
  return undefined;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * Walks resourceSpans (or Tempo's `batches`) > scopeSpans (or the pre-1.0
 * `instrumentationLibrarySpans`) > spans, then resourceLogs > scopeLogs > logRecords, giving each
 * span and log record a `position` and reporting it as read before handling it.
 */
function walkRequest(doc: Record<string, unknown>, position: () => number, collector: ImportCollector, out: OtlpRead): void {
  const resources = Array.isArray(doc.resourceSpans) ? doc.resourceSpans : list(doc.batches);
  for (const rs of resources) {
    if (!isRecord(rs)) {
      collector.skip(0, "a resourceSpans entry is not a JSON object; its spans cannot be read");
      continue;
    }
    const resourceAttributes = isRecord(rs.resource) ? rs.resource.attributes : undefined;
    const overResource = resourceOverLimits(resourceAttributes);
    const resource = overResource ? new Map<string, unknown>() : attributeMap(resourceAttributes);
    const scopes = Array.isArray(rs.scopeSpans) ? rs.scopeSpans : list(rs.instrumentationLibrarySpans);
    for (const scope of scopes) {
      if (!isRecord(scope) || !Array.isArray(scope.spans)) {
        collector.skip(0, "a scopeSpans entry without a spans list; its spans cannot be read");
        continue;
      }
      for (const s of scope.spans) {
        const at = position();
        collector.read(at);
        if (overResource) {
          collector.skip(at, `span of a resource with ${overResource}; skipped`);
          continue;
        }
        const span = spanOf(s, at, resource, collector);
        if (span) out.spans.push(span);
      }
    }
  }
  for (const rl of list(doc.resourceLogs)) {
    if (!isRecord(rl)) continue;
    const scopes = Array.isArray(rl.scopeLogs) ? rl.scopeLogs : list(rl.instrumentationLibraryLogs);
    for (const scope of scopes) {
      if (!isRecord(scope)) continue;
      for (const record of list(scope.logRecords)) {
        const at = position();
        collector.read(at);
        if (!isRecord(record)) {
          collector.skip(at, "log record is not a JSON object; skipped");
          continue;
        }
        const attrs = attributeMap(record.attributes);
        const traceId = str(record.traceId);
        const spanId = str(record.spanId);
        out.logs.push({
          position: at,
          name: str(record.eventName) ?? str(attrs.get("event.name")) ?? "",
          ...(traceId ? { traceId } : {}),
          ...(spanId ? { spanId } : {}),
        });
      }
    }
  }
}

/** Whether a decoded value is an OTLP trace request this reader understands. */
export function isOtlpRequest(value: unknown): boolean {
  return isRecord(value) && (Array.isArray(value.resourceSpans) || Array.isArray(value.batches));
}

/**
 * Reads an already decoded ExportTraceServiceRequest (an OTLP/HTTP JSON body, or protobuf decoded
 * to its JSON mapping): spans and log records are numbered 1, 2, 3... in document order.
 */
export function readOtlpRequest(request: unknown, collector: ImportCollector): OtlpRead {
  const out: OtlpRead = { spans: [], logs: [] };
  let ordinal = 0;
  if (isRecord(request) && isOtlpRequest(request)) walkRequest(request, () => ++ordinal, collector, out);
  else collector.skip(0, "not an OTLP trace request (no resourceSpans list); nothing imported");
  return out;
}

function firstLineIsRequest(bytes: Uint8Array, start: number): boolean {
  const end = bytes.indexOf(0x0a, start);
  if (end < 0) return false; // one line that is not valid JSON: a damaged document, not JSON Lines
  const text = decodeUtf8(bytes.subarray(start, end));
  if (text === undefined) return false;
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) && ("resourceSpans" in value || "resourceLogs" in value || "batches" in value);
  } catch {
    return false;
  }
}

export function readOtlp(bytes: Uint8Array, collector: ImportCollector): OtlpRead {
  const start = skipWs(bytes, bomLength(bytes));
  const text = decodeUtf8(bytes.subarray(start));
  let doc: unknown;
  let failure = text === undefined ? "invalid UTF-8" : undefined;
  if (text !== undefined) {
    try {
      doc = JSON.parse(text);
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
  }
  if (failure === undefined) return isJaegerDocument(doc) ? readJaegerDocument(doc, collector) : readOtlpRequest(doc, collector);
  const out: OtlpRead = { spans: [], logs: [] };
  if (firstLineIsRequest(bytes, start)) {
    // Several requests, one per line (the Collector's file exporter): the line is the record.
    for (const line of eachJsonLine(bytes, collector)) {
      const value: Record<string, unknown> = line.value;
      if (!isOtlpRequest(value) && !Array.isArray(value.resourceLogs)) {
        collector.skip(line.line, "line is not an OTLP trace request (no resourceSpans); skipped");
        continue;
      }
      const before = out.spans.length + out.logs.length;
      walkRequest(value, () => line.line, collector, out);
      if (out.spans.length + out.logs.length === before) collector.use(line.line); // an empty export batch
    }
    return out;
  }
  let ordinal = 0;
  const recovered = recoverSpans(bytes, () => ++ordinal, collector, out.spans);
  collector.skip(
    0,
    `the document is not valid JSON (${failure}); read ${recovered} spans from its span lists, without resource attributes; whatever else it held is lost`,
  );
  return out;
}

const SPANS_KEY = new TextEncoder().encode('"spans"');

/** Finds every `"spans": [` list outside string literals and parses its elements one by one. */
function recoverSpans(bytes: Uint8Array, next: () => number, collector: ImportCollector, out: OtlpSpan[]): number {
  const before = out.length;
  const none = new Map<string, unknown>();
  let from = 0;
  for (;;) {
    const at = indexOfBytes(bytes, SPANS_KEY, from);
    if (at < 0) break;
    from = at + SPANS_KEY.length;
    if (at > 0 && bytes[at - 1] === 0x5c) continue; // an escaped quote: inside a string
    let i = skipWs(bytes, from);
    if (bytes[i] !== 0x3a) continue;
    i = skipWs(bytes, i + 1);
    if (bytes[i] !== 0x5b) continue;
    const { elements } = splitArray(bytes, i);
    for (const el of elements) {
      const position = next();
      collector.read(position);
      const elText = decodeUtf8(bytes.subarray(el.start, el.end));
      if (elText === undefined) {
        collector.skip(position, "invalid UTF-8 in span; skipped");
        continue;
      }
      try {
        const value: unknown = JSON.parse(elText);
        const span = isJaegerSpan(value)
          ? jaegerSpanOf(value, position, undefined, collector)
          : spanOf(value, position, none, collector);
        if (span) out.push(span);
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        collector.skip(
          position,
          el.complete ? `malformed span JSON (${detail}); skipped` : "truncated span at the end of the file; skipped",
        );
      }
    }
    from = elements.at(-1)?.end ?? from;
  }
  return out.length - before;
}

function indexOfBytes(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0]!;
  for (
    let i = haystack.indexOf(first, from);
    i >= 0 && i <= haystack.length - needle.length;
    i = haystack.indexOf(first, i + 1)
  ) {
    let match = true;
    for (let j = 1; j < needle.length; j++) {
      if (haystack[i + j] !== needle[j]) {
        match = false;
        break;
      }
    }
    if (match) return i;
  }
  return -1;
}

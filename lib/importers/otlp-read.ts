/**
 * Reading OTLP/JSON trace exports into flat span records: one ExportTraceServiceRequest document
 * (`{"resourceSpans": [...]}`), or JSON Lines of them (as the Collector's file exporter writes).
 * A damaged document still yields the spans that can be read from its span lists.
 */
import type { ImportCollector } from "./builder";
import { splitArray, skipWs } from "./json-scan";
import { readJsonLines } from "./jsonl";
import { attributeMap, nanos } from "./otel-values";
import { bomLength, decodeUtf8, isRecord, str } from "./text";

export interface OtlpEvent {
  name: string;
  time?: bigint;
  attrs: Map<string, unknown>;
}

export interface OtlpSpan {
  /** Line (JSON Lines) or 1-based ordinal of the span in the document. */
  position: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  start?: bigint;
  end?: bigint;
  attrs: Map<string, unknown>;
  events: OtlpEvent[];
  /** Status ERROR or an `error.type` attribute. */
  failed: boolean;
  statusMessage?: string;
  resource: Map<string, unknown>;
}

const STATUS_ERROR = new Set<unknown>([2, "2", "STATUS_CODE_ERROR"]);

function spanOf(
  value: unknown,
  position: number,
  resource: Map<string, unknown>,
  collector: ImportCollector,
): OtlpSpan | undefined {
  if (!isRecord(value)) {
    collector.issue(position, "span is not a JSON object; skipped");
    return undefined;
  }
  const traceId = str(value.traceId);
  const spanId = str(value.spanId);
  if (!traceId || !spanId) {
    collector.issue(position, "span without traceId and spanId; skipped");
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
  return {
    position,
    traceId,
    spanId,
    ...(parent ? { parentSpanId: parent } : {}),
    name: str(value.name) ?? "",
    ...(start !== undefined ? { start } : {}),
    ...(end !== undefined ? { end } : {}),
    attrs,
    events,
    failed: STATUS_ERROR.has(status.code) || attrs.has("error.type"),
    ...(str(status.message) ? { statusMessage: str(status.message) } : {}),
    resource,
  };
}

/** Walks resourceSpans > scopeSpans > spans, numbering spans with `position`. */
function walkRequest(doc: Record<string, unknown>, position: () => number, collector: ImportCollector, out: OtlpSpan[]): void {
  const resources = Array.isArray(doc.resourceSpans) ? doc.resourceSpans : [];
  for (const rs of resources) {
    if (!isRecord(rs)) continue;
    const resource = attributeMap(isRecord(rs.resource) ? rs.resource.attributes : undefined);
    // `instrumentationLibrarySpans` is the pre-1.0 name of `scopeSpans`.
    const scopes = Array.isArray(rs.scopeSpans)
      ? rs.scopeSpans
      : Array.isArray(rs.instrumentationLibrarySpans)
        ? rs.instrumentationLibrarySpans
        : [];
    for (const scope of scopes) {
      if (!isRecord(scope) || !Array.isArray(scope.spans)) continue;
      for (const s of scope.spans) {
        const span = spanOf(s, position(), resource, collector);
        if (span) out.push(span);
      }
    }
  }
}

function firstLineIsRequest(bytes: Uint8Array, start: number): boolean {
  const end = bytes.indexOf(0x0a, start);
  const text = decodeUtf8(bytes.subarray(start, end < 0 ? bytes.length : end));
  if (text === undefined) return false;
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) && "resourceSpans" in value;
  } catch {
    return false;
  }
}

export function readOtlp(bytes: Uint8Array, collector: ImportCollector): OtlpSpan[] {
  const spans: OtlpSpan[] = [];
  const start = skipWs(bytes, bomLength(bytes));
  let ordinal = 0;
  const next = () => ++ordinal;
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
  if (failure === undefined) {
    // One document: spans are numbered by their ordinal in it.
    if (isRecord(doc) && Array.isArray(doc.resourceSpans)) walkRequest(doc, next, collector, spans);
    else collector.issue(0, "the document is not an OTLP trace request (no resourceSpans list); nothing imported");
    return spans;
  }
  if (firstLineIsRequest(bytes, start)) {
    // Several requests, one per line: spans are numbered by their line.
    for (const line of readJsonLines(bytes, collector)) {
      if (!("resourceSpans" in line.value)) {
        collector.issue(line.line, "line is not an OTLP trace request (no resourceSpans); skipped");
        continue;
      }
      walkRequest(line.value, () => line.line, collector, spans);
    }
    return spans;
  }
  const recovered = recoverSpans(bytes, next, collector, spans);
  collector.issue(
    0,
    `the document is not valid JSON (${failure}); read ${recovered} spans from its span lists, without resource attributes`,
  );
  return spans;
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
      const elText = decodeUtf8(bytes.subarray(el.start, el.end));
      if (elText === undefined) {
        collector.issue(position, "invalid UTF-8 in span; skipped");
        continue;
      }
      try {
        const span = spanOf(JSON.parse(elText), position, none, collector);
        if (span) out.push(span);
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        collector.issue(
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

/**
 * Reading Jaeger's JSON trace format into the span records the OTLP path reads (see ./otlp-read):
 * what Jaeger's query API returns and its UI's "Download JSON" saves, `{"data": [trace, ...]}`,
 * or one trace `{"traceID", "spans": [...], "processes": {...}}`. Jaeger stores OpenTelemetry
 * spans by translating them, and the mapping here undoes that translation:
 * - `tags` are the attributes (typed: string, bool, int64, float64, binary; see ./jaeger-tags),
 *   except the tags the translation writes for OTLP fields: `span.kind` is the kind,
 *   `otel.status_code` / `otel.status_description` the status (else an `error` tag of true means
 *   ERROR), `otel.scope.*` / `otel.library.*` the instrumentation scope (not kept).
 * - The parent is the first CHILD_OF reference into the same trace, else the first FOLLOWS_FROM
 *   one (Jaeger's own rule); other references are links, not kept.
 * - `startTime` and `duration` are microseconds; the end is start + duration.
 * - `logs` are the events: the `event` field is the event's name, the other fields its attributes.
 * - The span's process (`processID` into the trace's `processes`, or an inline `process`) is the
 *   resource: `service.name` from its `serviceName`, and its tags.
 *
 * What a record is: each span, numbered by its 1-based ordinal in the document. Each is reported
 * as read before it is handled, and skipped with its reason when it cannot be read (not an
 * object, no ids, tags, logs or references that are not lists of well-formed entries).
 */
import type { ImportCollector } from "../shared/builder";
import { micros, readTags } from "./jaeger-tags";
import type { OtlpEvent, OtlpRead, OtlpSpan, SpanKindName } from "./otlp-records";
import { resourceOverLimits, spanOverLimits } from "./otlp-limits";
import { isRecord, str } from "../shared/text";

const KINDS: Record<string, SpanKindName> = {
  internal: "INTERNAL",
  server: "SERVER",
  client: "CLIENT",
  producer: "PRODUCER",
  consumer: "CONSUMER",
};

/** Tags the OTLP-to-Jaeger translation writes for span fields, not span attributes. */
const TRANSLATION_TAGS = [
  "span.kind",
  "otel.status_code",
  "otel.status_description",
  "otel.scope.name",
  "otel.scope.version",
  "otel.library.name",
  "otel.library.version",
  "internal.span.format",
  "w3c.tracestate",
];

/** Whether a decoded document is Jaeger's JSON: `{"data": [...]}` of traces, or one trace. */
export function isJaegerDocument(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  if (Array.isArray(value.data)) return value.data.some((t) => isRecord(t) && ("traceID" in t || "spans" in t));
  return isJaegerTrace(value);
}

function isJaegerTrace(value: Record<string, unknown>): boolean {
  return typeof value.traceID === "string" && Array.isArray(value.spans);
}

/** Whether a decoded span object is in Jaeger's shape (used when recovering a damaged file). */
export function isJaegerSpan(value: unknown): boolean {
  return isRecord(value) && ("spanID" in value || "traceID" in value || "operationName" in value);
}

type Processes = Map<string, Map<string, unknown>>;

/** A process as resource attributes: `service.name` and its tags (unreadable tags reported). */
function resourceOf(process: unknown, collector: ImportCollector, label: string): Map<string, unknown> {
  if (!isRecord(process)) return new Map();
  const over = resourceOverLimits(process.tags);
  if (over) {
    collector.issue(0, `process ${label} has ${over}; its tags are not read`);
    return new Map(str(process.serviceName) !== undefined ? [["service.name", str(process.serviceName)]] : []);
  }
  const tags = readTags(process.tags, "tags");
  if (!tags.ok) collector.issue(0, `process ${label} has ${tags.error}; its tags are not read`);
  const resource = new Map(tags.ok ? tags.map : []);
  const service = str(process.serviceName);
  if (service !== undefined) resource.set("service.name", service);
  return resource;
}

function processesOf(value: unknown, collector: ImportCollector): Processes {
  const out: Processes = new Map();
  if (!isRecord(value)) return out;
  for (const [id, process] of Object.entries(value)) out.set(id, resourceOf(process, collector, `"${id}"`));
  return out;
}

/** Jaeger's parent rule: the first CHILD_OF into the same trace, else the first FOLLOWS_FROM. */
function parentOf(references: unknown[], traceId: string): string | undefined {
  const same = references.filter(isRecord).filter((r) => str(r.traceID) === undefined || str(r.traceID) === traceId);
  const child = same.find((r) => r.refType === "CHILD_OF");
  return str((child ?? same.find((r) => r.refType === "FOLLOWS_FROM"))?.spanID);
}

/** Why a span's lists cannot be read, if they cannot: a dropped entry would lose content silently. */
function malformed(value: Record<string, unknown>): string | undefined {
  for (const name of ["references", "logs"] as const) {
    const list = value[name];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) return `${name} that are not a list`;
    for (const entry of list) {
      if (!isRecord(entry)) return `an entry of its ${name} that is not an object`;
      if (name === "references" && (typeof entry.spanID !== "string" || typeof entry.refType !== "string"))
        return "a reference without a refType and a spanID";
      if (name === "logs") {
        const fields = readTags(entry.fields, "fields");
        if (!fields.ok) return `a log with ${fields.error}`;
      }
    }
  }
  return undefined;
}

function statusOf(tags: Map<string, unknown>): OtlpSpan["status"] {
  const code = str(tags.get("otel.status_code"))?.toUpperCase();
  if (code === "ERROR") return "ERROR";
  if (code === "OK") return "OK";
  const error = tags.get("error");
  return error === true || error === "true" ? "ERROR" : "UNSET";
}

function eventsOf(logs: unknown): OtlpEvent[] {
  return (Array.isArray(logs) ? logs : []).filter(isRecord).map((log) => {
    const fields = readTags(log.fields, "fields");
    const attrs = fields.ok ? fields.map : new Map<string, unknown>();
    const name = str(attrs.get("event")) ?? "";
    attrs.delete("event");
    const time = micros(log.timestamp);
    return { name, ...(time ? { time } : {}), attrs };
  });
}

/**
 * One Jaeger span as an OTLP span record, or undefined (skipped, with its reason). `processes` is
 * undefined when the trace's process table could not be read (a damaged file's spans).
 */
export function jaegerSpanOf(
  value: unknown,
  position: number,
  processes: Processes | undefined,
  collector: ImportCollector,
): OtlpSpan | undefined {
  if (!isRecord(value)) {
    collector.skip(position, "span is not a JSON object; skipped");
    return undefined;
  }
  const traceId = str(value.traceID);
  const spanId = str(value.spanID);
  if (!traceId || !spanId) {
    collector.skip(position, "span without traceID and spanID; skipped");
    return undefined;
  }
  // Counted before any list is read: a span of 300,000 tags would hold the parse for seconds.
  const over = spanOverLimits(value, "jaeger");
  if (over) {
    collector.skip(position, `span ${spanId} has ${over}; skipped`);
    return undefined;
  }
  const tags = readTags(value.tags, "tags");
  const damaged = tags.ok ? malformed(value) : tags.error;
  if (!tags.ok || damaged) {
    collector.skip(position, `span ${spanId} has ${damaged}; skipped`);
    return undefined;
  }
  const attrs = tags.map;
  const status = statusOf(attrs);
  const statusMessage = str(attrs.get("otel.status_description"));
  const kind = KINDS[String(attrs.get("span.kind")).toLowerCase()] ?? "UNSPECIFIED";
  for (const key of TRANSLATION_TAGS) attrs.delete(key);
  if (typeof attrs.get("error") === "boolean" || attrs.get("error") === "true") attrs.delete("error");
  const parent = parentOf(Array.isArray(value.references) ? value.references : [], traceId) ?? str(value.parentSpanID);
  const start = micros(value.startTime) || undefined;
  const duration = micros(value.duration);
  const processId = str(value.processID);
  let resource = processId !== undefined ? processes?.get(processId) : undefined;
  if (!resource && isRecord(value.process)) resource = resourceOf(value.process, collector, `of span ${spanId}`);
  if (!resource && processId !== undefined && processes)
    collector.issue(
      position,
      `span ${spanId} names process "${processId}", which the trace does not list; its service is unknown`,
    );
  return {
    position,
    traceId,
    spanId,
    ...(parent ? { parentSpanId: parent } : {}),
    name: str(value.operationName) ?? "",
    kind,
    ...(start !== undefined ? { start } : {}),
    ...(start !== undefined && duration !== undefined ? { end: start + duration } : {}),
    attrs,
    events: eventsOf(value.logs),
    status,
    failed: status === "ERROR" || attrs.has("error.type"),
    ...(statusMessage ? { statusMessage } : {}),
    resource: resource ?? new Map(),
  };
}

/**
 * Reads a decoded Jaeger document: every trace's spans, numbered 1, 2, 3... in document order.
 * A trace entry that is not an object, or has no span list, is reported: its spans cannot be read.
 */
export function readJaegerDocument(doc: Record<string, unknown>, collector: ImportCollector): OtlpRead {
  const out: OtlpRead = { spans: [], logs: [] };
  const traces = Array.isArray(doc.data) ? doc.data : [doc];
  let ordinal = 0;
  for (const trace of traces) {
    if (!isRecord(trace) || !Array.isArray(trace.spans)) {
      collector.skip(0, "a Jaeger trace entry without a spans list; its spans cannot be read");
      continue;
    }
    const processes = processesOf(trace.processes, collector);
    for (const s of trace.spans) {
      const at = ++ordinal;
      collector.read(at);
      const span = jaegerSpanOf(s, at, processes, collector);
      if (span) out.spans.push(span);
    }
  }
  return out;
}

/** Detection score for the head of a Jaeger JSON file: its opening, and span keys no other format has. */
export function jaegerScore(head: string): number {
  const spanKeys = /(?<!\\)"spanID"\s*:/.test(head) && /(?<!\\)"operationName"\s*:/.test(head);
  if (!spanKeys) return 0;
  if (/^\s*\{\s*"data"\s*:\s*\[\s*\{/.test(head)) return 0.9;
  return /^\s*\{\s*"(traceID|spans|processes)"\s*:/.test(head) ? 0.85 : 0;
}

/**
 * How many attributes, events and links one OTLP span (and one resource) may carry. A span of
 * 300,000 attributes (14 MB) held a server for tens of seconds; every list is counted here, by its
 * length alone, before any of its entries is read.
 *
 * OpenTelemetry SDKs cut spans at 128 of each by default (the span limits of the trace SDK spec);
 * these caps are far above that, so that a sender who raised its limits, or OpenLLMetry's indexed
 * `gen_ai.prompt.N.*` attributes of a conversation of a thousand messages, still fits.
 *
 * A span over a cap is refused whole, never cut to the cap: dropping attributes would lose what a
 * message or a tool call said without a trace. The OTLP receiver counts it in partialSuccess
 * (rejectedSpans, with this reason in errorMessage) and stores nothing of it; a file import skips
 * it with the reason, so its session cannot answer NO.
 */
import { isRecord } from "../shared/text";

export const OTLP_SPAN_LIMITS = {
  /** Attributes of one span, and of one resource. */
  attributes: 8192,
  /** Events (Jaeger: logs) of one span. */
  events: 1024,
  /** Links (Jaeger: references) of one span. */
  links: 1024,
  /** Attributes (Jaeger: fields) of one event or link. */
  entryAttributes: 1024,
} as const;

const length = (value: unknown) => (Array.isArray(value) ? value.length : 0);

function listOver(value: unknown, cap: number, what: string): string | undefined {
  const n = length(value);
  return n > cap ? `${n} ${what}, over the cap of ${cap}` : undefined;
}

/** Why the entries of a span's event or link list are over their cap, if any is. */
function entriesOver(list: unknown, field: string, what: string): string | undefined {
  if (!Array.isArray(list)) return undefined;
  for (const entry of list) {
    if (!isRecord(entry)) continue;
    const over = listOver(entry[field], OTLP_SPAN_LIMITS.entryAttributes, `attributes on one of its ${what}`);
    if (over) return over;
  }
  return undefined;
}

/**
 * Why an OTLP span (its JSON mapping) is over a cap, or undefined. Jaeger spans use `tags`, `logs`
 * (with `fields`) and `references` for the same lists. Reads lengths only, and the event and link
 * lists only once they are known to be within their caps.
 */
export function spanOverLimits(span: Record<string, unknown>, dialect: "otlp" | "jaeger" = "otlp"): string | undefined {
  const jaeger = dialect === "jaeger";
  const attributes = jaeger ? span.tags : span.attributes;
  const events = jaeger ? span.logs : span.events;
  const links = jaeger ? span.references : span.links;
  const field = jaeger ? "fields" : "attributes";
  return (
    listOver(attributes, OTLP_SPAN_LIMITS.attributes, "attributes") ??
    listOver(events, OTLP_SPAN_LIMITS.events, "events") ??
    listOver(links, OTLP_SPAN_LIMITS.links, "links") ??
    entriesOver(events, field, "events") ??
    (jaeger ? undefined : entriesOver(links, "attributes", "links"))
  );
}

/** Why a resource's attribute list is over the cap, or undefined. */
export function resourceOverLimits(attributes: unknown): string | undefined {
  return listOver(attributes, OTLP_SPAN_LIMITS.attributes, "resource attributes");
}

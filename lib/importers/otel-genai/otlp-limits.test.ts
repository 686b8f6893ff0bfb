import { describe, expect, it } from "vitest";
import { parseOtlpRequest } from "./index";
import { readJaegerDocument } from "./jaeger-read";
import { ImportCollector } from "../shared/builder";
import { OTLP_SPAN_LIMITS } from "./otlp-limits";
import { expectAccounted } from "../shared/testkit";

/** A list that counts how many of its entries are read (its length is free). */
function counted<T>(entries: T[]): { list: T[]; reads: () => number } {
  let reads = 0;
  const list = new Proxy(entries, {
    get(target, key, receiver) {
      if (typeof key === "string" && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver);
    },
  });
  return { list, reads: () => reads };
}

const chatAttributes = (conversation: string) => [
  { key: "gen_ai.operation.name", value: { stringValue: "chat" } },
  { key: "gen_ai.conversation.id", value: { stringValue: conversation } },
  { key: "gen_ai.input.messages", value: { stringValue: '[{"role":"user","parts":[{"type":"text","content":"hi"}]}]' } },
];
const span = (spanId: string, attributes: unknown[], extra: Record<string, unknown> = {}) => ({
  traceId: "t1",
  spanId,
  name: "chat",
  startTimeUnixNano: "1764000000000000000",
  endTimeUnixNano: "1764000001000000000",
  attributes,
  ...extra,
});
const request = (spans: unknown[], resource: unknown[] = []) => ({
  resourceSpans: [{ resource: { attributes: resource }, scopeSpans: [{ spans }] }],
});

describe("OTLP span caps in the importer", () => {
  it("skips a span over the attribute cap without reading one of its attributes, and keeps the rest", () => {
    const filler = Array.from({ length: 20_000 }, (_, i) => ({ key: `x.${i}`, value: { intValue: i } }));
    const attributes = counted([...chatAttributes("capped"), ...filler]);
    const result = parseOtlpRequest(request([span("big", attributes.list), span("small", chatAttributes("within"))]));
    expect(attributes.reads()).toBe(0);
    expect(result.sessions.map((x) => x.externalId)).toEqual(["within"]);
    const issue = result.issues.find((i) => i.line === 1);
    expect(issue?.message).toContain(`over the cap of ${OTLP_SPAN_LIMITS.attributes}`);
    expectAccounted(result);
  });

  it("keeps a span at the caps exactly", () => {
    const filler = Array.from({ length: OTLP_SPAN_LIMITS.attributes - 3 }, (_, i) => ({ key: `x.${i}`, value: { intValue: i } }));
    const result = parseOtlpRequest(request([span("full", [...chatAttributes("full"), ...filler])]));
    expect(result.sessions.map((x) => x.externalId)).toEqual(["full"]);
    expect(result.records.skipped).toBe(0);
  });

  it("skips spans over the event, link and event-attribute caps, and every span of a resource over its cap", () => {
    const events = counted(Array.from({ length: OTLP_SPAN_LIMITS.events + 1 }, () => ({ name: "e", attributes: [] })));
    const links = Array.from({ length: OTLP_SPAN_LIMITS.links + 1 }, () => ({ traceId: "t2", spanId: "s" }));
    const wide = [{ name: "e", attributes: Array.from({ length: OTLP_SPAN_LIMITS.entryAttributes + 1 }, () => ({})) }];
    const result = parseOtlpRequest(
      request([
        span("events", chatAttributes("a"), { events: events.list }),
        span("links", chatAttributes("a"), { links }),
        span("wide", chatAttributes("a"), { events: wide }),
      ]),
    );
    expect(events.reads()).toBe(0);
    expect(result.records.skipped).toBe(3);
    const resource = Array.from({ length: OTLP_SPAN_LIMITS.attributes + 1 }, (_, i) => ({ key: `r.${i}`, value: {} }));
    const big = parseOtlpRequest(request([span("x", chatAttributes("a")), span("y", chatAttributes("a"))], resource));
    expect(big.records.skipped).toBe(2);
    expect(big.issues[0]?.message).toContain("resource attributes, over the cap");
  });

  it("skips a Jaeger span over the tag cap without reading its tags", () => {
    const tags = counted(
      Array.from({ length: OTLP_SPAN_LIMITS.attributes + 1 }, (_, i) => ({ key: `x.${i}`, type: "int64", value: i })),
    );
    const collector = new ImportCollector("otel-genai");
    const read = readJaegerDocument(
      { traceID: "t1", spans: [{ traceID: "t1", spanID: "s1", operationName: "chat", tags: tags.list }] },
      collector,
    );
    expect(read.spans).toEqual([]);
    expect(tags.reads()).toBe(0);
    expect(collector.result().issues[0]?.message).toContain("over the cap");
  });
});

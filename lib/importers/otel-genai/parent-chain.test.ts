import { describe, expect, it } from "vitest";
import { parseOtlpRequest } from "./index";
import { Trees } from "./spans";
import { readOtlpRequest } from "./otlp-read";
import { ImportCollector } from "../shared/builder";
import { resolveAlongParents } from "../shared/parent-chain";
import { expectAccounted } from "../shared/testkit";

const T0 = 1760000000000000000n;
const s = (key: string, value: string) => ({ key, value: { stringValue: value } });
const request = (spans: unknown[]) => ({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans }] }] });
function span(id: string, parent: string | undefined, i: number, attributes: unknown[], extra: Record<string, unknown> = {}) {
  return {
    traceId: "t1",
    spanId: id,
    ...(parent ? { parentSpanId: parent } : {}),
    name: "x",
    startTimeUnixNano: String(T0 + BigInt(i) * 1000n),
    endTimeUnixNano: String(T0 + BigInt(i) * 1000n + 1n),
    attributes,
    ...extra,
  };
}
const chat = (i: number) => [
  s("gen_ai.operation.name", "chat"),
  s("gen_ai.input.messages", JSON.stringify([{ role: "user", parts: [{ type: "text", content: `message ${i}` }] }])),
];

/** N chat spans, each the parent of the next; only the first names its conversation. */
function chatChain(n: number): unknown[] {
  const spans: unknown[] = [];
  for (let i = 0; i < n; i++)
    spans.push(
      span(`c${i}`, i > 0 ? `c${i - 1}` : undefined, i, [...chat(i), ...(i === 0 ? [s("gen_ai.conversation.id", "deep")] : [])]),
    );
  // A second conversation in the same trace, so the chain's spans get theirs only from their ancestors.
  spans.push(span("other", undefined, n, [...chat(n), s("gen_ai.conversation.id", "other")]));
  return spans;
}

describe("OTel GenAI importer: long parent chains", () => {
  it("resolves a 10,000-span chain once per span, every span inheriting its root's conversation", () => {
    const n = 10_000;
    const req = request(chatChain(n));
    const trees = new Trees(readOtlpRequest(req, new ImportCollector("otel-genai")).spans);
    // Each span is resolved once against its parent, and marked once as above content: linear.
    expect(trees.visits).toBeLessThanOrEqual(2 * (n + 1));
    const started = Date.now();
    const result = parseOtlpRequest(req);
    // A guard only (the count above is the criterion): asking each span's ancestors anew took minutes.
    expect(Date.now() - started).toBeLessThan(15_000);
    const deep = result.sessions.find((x) => x.externalId === "deep");
    expect(deep?.spans).toHaveLength(n);
    expect(result.sessions.map((x) => x.externalId).sort()).toEqual(["deep", "other"]);
    expectAccounted(result);
  }, 30_000);

  it("sees a model call at the top of a deep chain from a request at its bottom", () => {
    const n = 5_000;
    const spans: unknown[] = [span("m0", undefined, 0, chat(0))];
    for (let i = 1; i < n; i++) spans.push(span(`i${i}`, i === 1 ? "m0" : `i${i - 1}`, i, [], { kind: 1 }));
    // A content-less model call and an outgoing POST at the bottom: both belong to the call above.
    spans.push(span("quiet", `i${n - 1}`, n, [s("gen_ai.operation.name", "chat")]));
    spans.push(span("post", "quiet", n + 1, [s("http.request.method", "POST")], { kind: 3 }));
    const result = parseOtlpRequest(request(spans));
    expect(result.records.ignoredByType["model-call:recorded-elsewhere"]).toBe(1);
    expect(result.records.ignoredByType["request:model-transport"]).toBe(1);
    expectAccounted(result);
  });

  it("ends a loop of parent ids, inheriting along it up to where it is cut", () => {
    const spans = [
      span("a", "b", 0, [...chat(0), s("gen_ai.conversation.id", "looped")]),
      span("b", "c", 1, chat(1)),
      span("c", "a", 2, chat(2)),
      span("z", undefined, 3, [...chat(3), s("gen_ai.conversation.id", "other")]),
    ];
    const result = parseOtlpRequest(request(spans));
    expect(result.sessions.find((x) => x.externalId === "looped")?.spans.length).toBeGreaterThanOrEqual(1);
    expectAccounted(result);
  });
});

describe("resolveAlongParents", () => {
  it("visits each item once down a chain far deeper than the call stack, in any order", () => {
    const n = 200_000;
    const items = Array.from({ length: n }, (_, i) => i).reverse(); // deepest first
    const chain = resolveAlongParents<number, number>(
      items,
      (i) => (i > 0 ? i - 1 : undefined),
      (_, above) => (typeof above === "object" ? above.value + 1 : 0),
    );
    expect(chain.visits).toBe(n);
    expect(chain.values.get(n - 1)).toBe(n - 1);
  });

  it("cuts a loop where the walk meets it, resolving the closing item as a root", () => {
    const parent = new Map([
      ["a", "b"],
      ["b", "c"],
      ["c", "a"],
      ["d", "a"],
    ]);
    const seen: Array<[string, string]> = [];
    const chain = resolveAlongParents<string, number>(
      ["a", "b", "c", "d"],
      (x) => parent.get(x),
      (x, above) => {
        seen.push([x, typeof above === "object" ? "parent" : above]);
        return typeof above === "object" ? above.value + 1 : 0;
      },
    );
    expect(chain.visits).toBe(4);
    expect(seen[0]).toEqual(["c", "loop"]);
    expect(Object.fromEntries(chain.values)).toEqual({ c: 0, b: 1, a: 2, d: 3 });
  });
});

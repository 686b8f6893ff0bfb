/**
 * Hostile OTLP/HTTP bodies for the fuzz run, each a shape that once held the server: a trace of
 * spans each the parent of the next (every span walked all its ancestors), a span past the
 * attribute cap (every attribute read and stored), and a small gzip body inflating past the body
 * limit (inflated whole, synchronously). Sizes are small enough to keep a fuzz run quick; the
 * shapes are what matters.
 */
import { gzipSync } from "node:zlib";
import { MAX_BODY_BYTES } from "@/lib/api/body";
import { OTLP_SPAN_LIMITS } from "@/lib/importers/otel-genai/otlp-limits";
import type { Rng } from "./hostile";

export interface HostileBody {
  body: Uint8Array<ArrayBuffer>;
  note: string;
  contentType: string;
  headers?: Record<string, string>;
}

const utf8 = (text: string): Uint8Array<ArrayBuffer> => new Uint8Array(Buffer.from(text));
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
const request = (spans: unknown[]) => ({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans }] }] });

function chatSpan(traceId: string, i: number, parent: string | undefined, extra: unknown[] = []) {
  return {
    traceId,
    spanId: `c${i}`,
    ...(parent ? { parentSpanId: parent } : {}),
    name: "chat",
    startTimeUnixNano: String(1764000000000000000n + BigInt(i) * 1000n),
    attributes: [
      str("gen_ai.operation.name", "chat"),
      str("gen_ai.input.messages", JSON.stringify([{ role: "user", parts: [{ type: "text", content: `m${i}` }] }])),
      ...extra,
    ],
  };
}

let bomb: Uint8Array<ArrayBuffer> | undefined;

/** Inflating just past the body limit, from a few KB. */
function gzipBomb(): Uint8Array<ArrayBuffer> {
  bomb ??= inflatingRequest(MAX_BODY_BYTES + 1);
  return bomb;
}

/** An OTLP/HTTP JSON request of `n` chat spans in one trace, each the parent of the next. */
export function chainedChatRequest(traceId: string, n: number): Uint8Array<ArrayBuffer> {
  const spans = Array.from({ length: n }, (_, i) => chatSpan(traceId, i, i > 0 ? `c${i - 1}` : undefined));
  return utf8(JSON.stringify(request(spans)));
}

/** A gzip body of a few hundred KB whose JSON inflates to `bytes`: whitespace inside an empty request. */
export function inflatingRequest(bytes: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(
    Buffer.concat([gzipSync('{"resourceSpans":['), gzipSync(Buffer.alloc(bytes, 0x20), { level: 9 }), gzipSync("]}")]),
  );
}

export function hostileOtlpBody(rng: Rng): HostileBody {
  const traceId = `fuzz${rng.int(0, 1e9).toString(16).padStart(12, "0")}`;
  switch (rng.int(0, 2)) {
    case 0: {
      const n = rng.int(100, 1500);
      return {
        body: chainedChatRequest(traceId, n),
        note: `OTLP chain of ${n} chat spans`,
        contentType: "application/json",
      };
    }
    case 1: {
      const n = OTLP_SPAN_LIMITS.attributes + rng.int(1, 1000);
      const filler = Array.from({ length: n }, (_, i) => ({ key: `x.${i}`, value: { intValue: i } }));
      const body = utf8(JSON.stringify(request([chatSpan(traceId, 0, undefined, filler)])));
      return { body, note: `OTLP span of ${n + 2} attributes`, contentType: "application/json" };
    }
    default:
      return {
        body: gzipBomb(),
        note: `gzip body of ${gzipBomb().byteLength} bytes inflating past ${MAX_BODY_BYTES}`,
        contentType: "application/json",
        headers: { "content-encoding": "gzip" },
      };
  }
}

/**
 * The GenAI conventions' own compaction signal: the `gen_ai.conversation.compacted` flag on a model
 * call whose input is a compacted view of the conversation (set only to true), and the `compaction`
 * message part ({type, id?, content?}: content is the unencrypted summary when there is one) with
 * its output finish reason `compaction`. Shapes from the conventions' message models
 * (open-telemetry/semantic-conventions-genai: docs/gen-ai/non-normative/models.py, CompactionPart
 * and FinishReason; model/gen-ai/gen-ai-input-messages.json), in OTLP/JSON as the OpenTelemetry
 * SDK's JSON serializer writes a chat span (CLIENT kind, messages as JSON strings, booleans as
 * boolValue).
 */
import { describe, expect, it } from "vitest";
import { parseOtelGenAi } from "./index";
import { expectAccounted, expectWellFormed, kinds, text } from "../shared/testkit";
import { utf8 } from "../shared/text";

const T0 = 1760000000000000000n;
const at = (sec: number) => String(T0 + BigInt(Math.round(sec * 1e9)));
const TRACE = "5b8efff798038103d269b633813fc60c";

type Part = Record<string, unknown>;
const user = (content: string) => ({ role: "user", parts: [{ type: "text", content }] });
const assistant = (...parts: Part[]) => ({ role: "assistant", parts });
const said = (content: string) => ({ type: "text", content });
const compaction = (id: string, content?: string) => ({ type: "compaction", id, ...(content ? { content } : {}) });

function chat(
  spanId: string,
  start: number,
  end: number,
  input: unknown[],
  output: Array<{ role: string; parts: Part[] }>,
  opts: { compacted?: boolean; finish?: string } = {},
) {
  return {
    traceId: TRACE,
    spanId,
    name: "chat claude-sonnet-4-5",
    kind: 3,
    startTimeUnixNano: at(start),
    endTimeUnixNano: at(end),
    attributes: [
      { key: "gen_ai.operation.name", value: { stringValue: "chat" } },
      { key: "gen_ai.provider.name", value: { stringValue: "anthropic" } },
      { key: "gen_ai.request.model", value: { stringValue: "claude-sonnet-4-5" } },
      { key: "gen_ai.conversation.id", value: { stringValue: "conv_compacted" } },
      ...(opts.compacted ? [{ key: "gen_ai.conversation.compacted", value: { boolValue: true } }] : []),
      { key: "gen_ai.input.messages", value: { stringValue: JSON.stringify(input) } },
      {
        key: "gen_ai.output.messages",
        value: { stringValue: JSON.stringify(output.map((m) => ({ ...m, finish_reason: opts.finish ?? "stop" }))) },
      },
    ],
    status: {},
  };
}

function otlp(spans: unknown[]): Uint8Array {
  return utf8(
    JSON.stringify({
      resourceSpans: [
        {
          resource: { attributes: [{ key: "service.name", value: { stringValue: "agent" } }] },
          scopeSpans: [{ scope: { name: "opentelemetry.instrumentation.anthropic" }, spans }],
        },
      ],
    }),
  );
}

describe("OTel GenAI importer: the conventions' compaction signal", () => {
  it("maps a compaction part the model returned as the summary of everything before it, once", () => {
    const summary = "Rotated the TLS cert on web-01 and restarted nginx.";
    const result = parseOtelGenAi(
      otlp([
        chat("a1", 1, 2, [user("rotate the cert")], [assistant(said("done, restarting nginx"))]),
        chat(
          "a2",
          3,
          4,
          [user("rotate the cert"), assistant(said("done, restarting nginx")), user("compact now")],
          [assistant(compaction("cmp_01", summary))],
          { finish: "compaction" },
        ),
        // The next request sends the compaction back as its history, flagged as a compacted view.
        chat("a3", 5, 6, [assistant(compaction("cmp_01", summary)), user("check the expiry")], [assistant(said("90 days"))], {
          compacted: true,
        }),
      ]),
    );
    const conv = result.sessions[0]!;
    expect(kinds(conv)).toEqual(["MESSAGE", "MESSAGE", "MESSAGE", "SUMMARY", "MESSAGE", "MESSAGE"]);
    expect(conv.spans.map((x) => text(x))).toEqual([
      "rotate the cert",
      "done, restarting nginx",
      "compact now",
      summary,
      "check the expiry",
      "90 days",
    ]);
    expect(conv.compactions).toEqual([{ summarySeq: 3, replacedSeqs: [0, 1, 2], occurredAt: conv.spans[3]!.occurredAt }]);
    expect(conv.spans[3]!.occurredAt).toEqual(new Date(Number((T0 + 4_000_000_000n) / 1_000_000n)));
    expect(result.issues).toEqual([]);
    expectWellFormed(result);
    expectAccounted(result);
    expect(result.records).toMatchObject({ read: 3, used: 3 });
  });

  it("marks where the flag first appears when no summary was reported, and only there", () => {
    const result = parseOtelGenAi(
      otlp([
        chat("b1", 1, 2, [user("deploy it")], [assistant(said("deployed"))]),
        chat("b2", 3, 4, [user("is it up?")], [assistant(said("yes"))], { compacted: true }),
        chat("b3", 5, 6, [user("is it up?"), assistant(said("yes")), user("thanks")], [assistant(said("welcome"))], {
          compacted: true,
        }),
      ]),
    );
    const conv = result.sessions[0]!;
    expect(kinds(conv)).toEqual(["MESSAGE", "MESSAGE", "SUMMARY", "MESSAGE", "MESSAGE", "MESSAGE", "MESSAGE"]);
    expect(text(conv.spans[2])).toBe("");
    expect(conv.compactions).toEqual([{ summarySeq: 2, replacedSeqs: [0, 1], occurredAt: conv.spans[2]!.occurredAt }]);
    expect(result.issues).toEqual([
      {
        line: 2,
        message:
          "gen_ai.conversation.compacted: this model call's input is a compacted view of the conversation, but no summary of it was reported; an empty SUMMARY span marks the compaction",
      },
    ]);
    expectWellFormed(result);
  });

  it("takes a compact span before the flagged call as that compaction, not a second one", () => {
    const compact = {
      traceId: TRACE,
      spanId: "c2",
      name: "compact",
      kind: 1,
      startTimeUnixNano: at(3),
      endTimeUnixNano: at(4),
      attributes: [
        { key: "gen_ai.operation.name", value: { stringValue: "compact" } },
        { key: "gen_ai.conversation.id", value: { stringValue: "conv_compacted" } },
        { key: "gen_ai.compaction.summary", value: { stringValue: "the user asked for a deploy; it is done" } },
      ],
    };
    const result = parseOtelGenAi(
      otlp([
        chat("c3", 5, 6, [user("and the logs?")], [assistant(said("clean"))], { compacted: true }),
        compact,
        chat("c1", 1, 2, [user("deploy it")], [assistant(said("deployed"))]),
      ]),
    );
    const conv = result.sessions[0]!;
    expect(conv.spans.map((x) => [x.kind, text(x)])).toEqual([
      ["MESSAGE", "deploy it"],
      ["MESSAGE", "deployed"],
      ["SUMMARY", "the user asked for a deploy; it is done"],
      ["MESSAGE", "and the logs?"],
      ["MESSAGE", "clean"],
    ]);
    expect(conv.compactions).toHaveLength(1);
    expect(result.issues).toEqual([]);
  });

  it("maps an opaque compaction part (no content) as an empty summary, noted, and not again when repeated", () => {
    const result = parseOtelGenAi(
      otlp([
        chat("d1", 1, 2, [user("build it")], [assistant(said("built"))]),
        chat("d2", 3, 4, [user("build it"), assistant(said("built"))], [assistant(compaction("cmp_opaque"))], {
          finish: "compaction",
        }),
        chat("d3", 5, 6, [assistant(compaction("cmp_opaque")), user("ship it")], [assistant(said("shipped"))], {
          compacted: true,
        }),
      ]),
    );
    const conv = result.sessions[0]!;
    expect(conv.spans.map((x) => [x.kind, text(x)])).toEqual([
      ["MESSAGE", "build it"],
      ["MESSAGE", "built"],
      ["SUMMARY", ""],
      ["MESSAGE", "ship it"],
      ["MESSAGE", "shipped"],
    ]);
    expect(conv.compactions).toEqual([{ summarySeq: 2, replacedSeqs: [0, 1], occurredAt: conv.spans[2]!.occurredAt }]);
    expect(result.issues).toEqual([
      { line: 2, message: "compaction message part without content (the compacted state is opaque); its SUMMARY span is empty" },
    ]);
  });
});

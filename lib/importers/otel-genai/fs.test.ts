/**
 * Node `fs` calls as @opentelemetry/instrumentation-fs records them: an INTERNAL span named
 * `fs <functionName>` (its own source: `tracer.startSpan(\`fs ${functionName}\`)`), no attributes
 * unless the application's hooks add a path. Inside an agent's trace, one that changes the file
 * system is a call; without its path, which file it changed is unknown.
 */
import { describe, expect, it } from "vitest";
import { CANNED_QUESTIONS } from "@/lib/evidence/questions";
import { answerOverImport } from "../shared/answer-testkit";
import { parseOtelGenAi } from "./index";
import { expectWellFormed, only } from "../shared/testkit";
import { utf8 } from "../shared/text";

const T0 = 1760000000000000000n;
const at = (sec: number) => String(T0 + BigInt(Math.round(sec * 1e9)));
const s = (key: string, value: string) => ({ key, value: { stringValue: value } });
const span = (id: string, name: string, start: number, attributes: unknown[], extra: Record<string, unknown> = {}) => ({
  traceId: "5b8efff798038103d269b633813fc60c",
  spanId: id,
  name,
  kind: 1,
  startTimeUnixNano: at(start),
  endTimeUnixNano: at(start + 0.01),
  attributes,
  ...extra,
});
const agent = span("a000000000000001", "invoke_agent cleaner", 0, [
  s("gen_ai.operation.name", "invoke_agent"),
  s("gen_ai.conversation.id", "conv-fs"),
  s("gen_ai.input.messages", JSON.stringify([{ role: "user", parts: [{ type: "text", content: "clean the build" }] }])),
]);
const child = (id: string, name: string, attributes: unknown[] = [], extra: Record<string, unknown> = {}) =>
  span(id, name, 1, attributes, { parentSpanId: "a000000000000001", ...extra });
const doc = (spans: unknown[]) =>
  utf8(JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans: [agent, ...spans] }] }] }));

describe("instrumentation-fs spans in an agent's trace", () => {
  it("a file removed is a call that deletes it; a read is no action", () => {
    const result = parseOtelGenAi(
      doc([
        child("f000000000000001", "fs unlinkSync", [s("file.path", "/srv/app/build/out.js")]),
        child("f000000000000002", "fs readFile"),
      ]),
    );
    expectWellFormed(result);
    const call = only(result).spans.find((x) => x.kind === "TOOL_CALL");
    expect(call).toMatchObject({ toolName: "fs.unlinkSync", toolInput: { path: "/srv/app/build/out.js" }, outcome: "SUCCEEDED" });
    expect(result.records.ignoredByType["span:internal"]).toBe(1);
    const answer = answerOverImport(result, CANNED_QUESTIONS["deleted-files"]);
    expect(answer.answer).toBe("YES");
    expect(answer.citations.map((c) => [c.excerpt, c.effect])).toEqual([["/srv/app/build/out.js", "FILE_DELETE"]]);
  });

  it("a write without its path is a call, and the session is incomplete: which file is unknown", () => {
    const result = parseOtelGenAi(
      doc([child("f000000000000003", "fs writeFile", [], { status: { code: 2, message: "EACCES" } })]),
    );
    const session = only(result);
    expect(session.spans.find((x) => x.kind === "TOOL_CALL")).toMatchObject({ toolName: "fs.writeFile", outcome: "FAILED" });
    expect(session.skipped.map((k) => k.message)).toEqual([
      expect.stringMatching(/^fs\.writeFile span without the path it changed/),
    ]);
    expect(answerOverImport(result, CANNED_QUESTIONS["wrote-outside-cwd"]).answer).toBe("INSUFFICIENT_EVIDENCE");
  });

  it("a trace whose only fs span reads still answers NO: a read is no action", () => {
    const result = parseOtelGenAi(doc([child("f000000000000004", "fs stat")]));
    expect(answerOverImport(result, CANNED_QUESTIONS["deleted-files"]).answer).toBe("NO");
  });
});

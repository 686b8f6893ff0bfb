/**
 * A compaction reported in an OTLP GenAI span stream (this receiver's convention: a span whose
 * gen_ai.operation.name is "compact" carrying gen_ai.compaction.summary) is linked as an observed
 * compaction: its summary replaces the spans before it, which show as reclaimed with a pointer.
 */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { COMPACTION_REPLACED, COMPACTION_SUMMARY } from "@/lib/importers/otel-genai";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { receiveOtlpTraces } from "./otlp-ingest";
import { attr, chat, hex, request, span, tool } from "./otlp-test-spans";

async function streamWithCompaction(label: string, replaced?: (ids: { chat: string }) => string[]) {
  const project = await makeTestProject(label);
  const trace = hex(16);
  const conversation = `compacting-${hex(4)}`;
  const t0 = new Date(Date.now() - 60_000);
  const at = (s: number) => new Date(t0.getTime() + s * 1000);
  const options = { requester: "test-exporter" };
  // The exporter sends each span as it ends: the turn, the tool call, then the compaction.
  const turn = chat(trace, conversation, "Set the log level in /etc/app/conf.yaml", at(0));
  await receiveOtlpTraces(project.id, request(turn), options);
  await receiveOtlpTraces(project.id, request(tool(trace, turn.spanId, "/etc/app/conf.yaml", at(1))), options);
  const compact = span({
    traceId: trace,
    conversation,
    operation: "compact",
    at: at(2),
    attributes: [
      attr(COMPACTION_SUMMARY, "The agent configured the application's YAML configuration."),
      ...(replaced
        ? [
            {
              key: COMPACTION_REPLACED,
              value: { arrayValue: { values: replaced({ chat: turn.spanId }).map((id) => ({ stringValue: id })) } },
            },
          ]
        : []),
    ],
  });
  const receipt = await receiveOtlpTraces(project.id, request(compact), options);
  expect(receipt.rejectedSpans).toBe(0);
  const session = await db().session.findFirstOrThrow({ where: { projectId: project.id, externalId: conversation } });
  const spans = await db().span.findMany({ where: { sessionId: session.id }, orderBy: { seq: "asc" } });
  const links = await db().summaryLink.findMany({ where: { sessionId: session.id } });
  return { session, spans, links };
}

describe("an OTLP compaction", () => {
  it("links the summary to every span since the previous compaction: reclaimed, each with a verifying pointer", async () => {
    const { spans, links } = await streamWithCompaction("otlp-compaction");
    const summary = spans.find((s) => s.kind === "SUMMARY");
    expect(summary).toBeDefined();
    const replaced = spans.filter((s) => s.kind !== "SUMMARY");
    expect(replaced.map((s) => s.kind).sort()).toEqual(["MESSAGE", "TOOL_CALL", "TOOL_RESULT"]);
    expect(links.map((l) => l.replacedSpanId).sort()).toEqual(replaced.map((s) => s.id).sort());
    for (const link of links) {
      expect(link.summarySpanId).toBe(summary!.id);
      expect(link.pointerSha256).toBe(replaced.find((s) => s.id === link.replacedSpanId)!.sha256);
    }
    for (const s of replaced) expect(s.transcriptState).toMatch(/^RECLAIMED/);
  });

  it("replaces only the spans it names in gen_ai.compaction.replaced_span_ids", async () => {
    const { spans, links } = await streamWithCompaction("otlp-compaction-named", ({ chat }) => [chat]);
    const message = spans.find((s) => s.kind === "MESSAGE")!;
    expect(links.map((l) => l.replacedSpanId)).toEqual([message.id]);
    expect(spans.filter((s) => s.kind === "TOOL_CALL" || s.kind === "TOOL_RESULT").map((s) => s.transcriptState)).toEqual([
      "VERBATIM",
      "VERBATIM",
    ]);
  });
});

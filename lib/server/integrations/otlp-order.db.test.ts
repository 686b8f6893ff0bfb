/**
 * Batches in any order: an exporter sends each span as it ends (children before their parents),
 * retries a failed export later (a later turn before an earlier one) and may send a batch twice.
 * Whatever order the receiver gets the batches in, the conversation's session ends up as it does
 * when they come in order: the same spans, in the same seqs, with the same content, and nothing else.
 */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { receiveOtlpTraces } from "./otlp-ingest";
import { attr, request } from "./otlp-test-spans";

const T0 = Date.parse("2026-11-20T09:00:00Z");
const nanos = (seconds: number) => String(BigInt(T0 + seconds * 1000) * 1_000_000n);
const CONVERSATION = "conv-order";
const [T1, T2] = ["1".repeat(32), "2".repeat(32)];
const id = (n: number) => n.toString(16).padStart(16, "0");

function otlpSpan(
  traceId: string,
  spanId: string,
  parent: string | null,
  start: number,
  end: number,
  attributes: Array<ReturnType<typeof attr>>,
) {
  return {
    traceId,
    spanId,
    ...(parent ? { parentSpanId: parent } : {}),
    name: "span",
    kind: 1,
    startTimeUnixNano: nanos(start),
    endTimeUnixNano: nanos(end),
    attributes,
    status: { code: 1 },
  };
}

const messages = (key: string, list: unknown[]) => attr(key, JSON.stringify(list));
const text = (role: string, content: string) => ({ role, parts: [{ type: "text", content }] });
const call = (callId: string, name: string, args: unknown) => ({
  role: "assistant",
  parts: [{ type: "tool_call", id: callId, name, arguments: args }],
});
const answer = (callId: string, response: string) => ({
  role: "tool",
  parts: [{ type: "tool_call_response", id: callId, response }],
});

const agent = (traceId: string, spanId: string, start: number, end: number) =>
  otlpSpan(traceId, spanId, null, start, end, [
    attr("gen_ai.operation.name", "invoke_agent"),
    attr("gen_ai.agent.name", "coder"),
    attr("gen_ai.conversation.id", CONVERSATION),
  ]);

const tool = (
  traceId: string,
  spanId: string,
  parent: string,
  at: number,
  name: string,
  callId: string,
  args: unknown,
  result: string,
  took = 1,
) =>
  otlpSpan(traceId, spanId, parent, at, at + took, [
    attr("gen_ai.operation.name", "execute_tool"),
    attr("gen_ai.tool.name", name),
    attr("gen_ai.tool.call.id", callId),
    attr("gen_ai.tool.call.arguments", JSON.stringify(args)),
    attr("gen_ai.tool.call.result", result),
  ]);

const chat = (traceId: string, spanId: string, parent: string, at: number, input: unknown[], output: unknown[]) =>
  otlpSpan(traceId, spanId, parent, at, at + 1, [
    attr("gen_ai.operation.name", "chat"),
    attr("gen_ai.request.model", "gpt-5"),
    attr("gen_ai.conversation.id", CONVERSATION),
    messages("gen_ai.input.messages", input),
    messages("gen_ai.output.messages", output),
  ]);

/** An HTTP request the agent made (an MCP tool's POST, say), traced by other instrumentation under the agent span. */
const post = (traceId: string, spanId: string, parent: string, at: number) => ({
  ...otlpSpan(traceId, spanId, parent, at, at + 1, [
    attr("http.request.method", "POST"),
    attr("url.full", "https://deploy.example.com/api/releases"),
  ]),
  name: "POST",
  kind: 3,
});

const WRITE = { path: "/etc/app/conf.yaml", content: "log_level: debug\n" };
const RESTART = { command: "systemctl restart app" };
const STATUS = { command: "systemctl status app" };
const first = text("user", "Set the log level in /etc/app/conf.yaml");
const second = text("user", "Now restart the service");

/** Two turns of one conversation, each its own trace, as the exporter sends them: a span a batch, as each ends. */
const BATCHES = {
  chat1: chat(T1, id(2), id(1), 1, [first], [call("call_1", "write_file", WRITE)]),
  tool1: tool(T1, id(3), id(1), 3, "write_file", "call_1", WRITE, "wrote 17 bytes"),
  post1: post(T1, id(8), id(1), 4),
  agent1: agent(T1, id(1), 0, 5),
  chat2: chat(
    T2,
    id(5),
    id(4),
    21,
    [first, call("call_1", "write_file", WRITE), answer("call_1", "wrote 17 bytes"), second],
    [
      {
        role: "assistant",
        parts: [...call("call_2", "run_command", RESTART).parts, ...call("call_3", "run_command", STATUS).parts],
      },
    ],
  ),
  // Two calls run side by side: they start together, the second ends first.
  tool2: tool(T2, id(6), id(4), 23, "run_command", "call_2", RESTART, "ok", 2),
  tool3: tool(T2, id(7), id(4), 23, "run_command", "call_3", STATUS, "active"),
  agent2: agent(T2, id(4), 20, 25),
};
type Batch = keyof typeof BATCHES;
const IN_ORDER: Batch[] = ["chat1", "tool1", "post1", "agent1", "chat2", "tool3", "tool2", "agent2"];

type Order = Array<Batch | [Batch, Date]>;

/** Sends the batches in the given order, each with its clock when given; answers the receipts. */
async function send(projectId: string, order: Order) {
  const receipts = [];
  for (const entry of order) {
    const [batch, now] = Array.isArray(entry) ? entry : [entry, undefined];
    receipts.push(await receiveOtlpTraces(projectId, request(BATCHES[batch]), { requester: "test", ...(now ? { now } : {}) }));
  }
  return receipts;
}

/** Every session of the project, with what a reader of it sees. */
function sessionsOf(projectId: string) {
  return db().session.findMany({
    where: { projectId },
    orderBy: { externalId: "asc" },
    select: {
      externalId: true,
      runtime: true,
      title: true,
      startedAt: true,
      spanCount: true,
      seqCount: true,
      seqMin: true,
      seqMax: true,
      spans: {
        orderBy: [{ seq: "asc" }],
        select: {
          seq: true,
          kind: true,
          role: true,
          toolName: true,
          toolInput: true,
          exitCode: true,
          outcome: true,
          occurredAt: true,
          sha256: true,
          class: true,
          transcriptState: true,
        },
      },
      skipped: { select: { reason: true }, orderBy: { reason: "asc" } },
    },
  });
}

async function receive(label: string, order: Order) {
  const project = await makeTestProject(label);
  await send(project.id, order);
  return sessionsOf(project.id);
}

describe("OTLP batches out of order", () => {
  it("reversed, with a batch sent twice, give the session the batches in order give", async () => {
    const inOrder = await receive("otlp-order-in-order", IN_ORDER);
    expect(inOrder.map((s) => s.externalId)).toEqual([CONVERSATION]);
    expect(inOrder[0]!.spans.map((s) => [s.seq, s.kind, s.role ?? s.toolName])).toEqual([
      [0, "MESSAGE", "user"],
      [1, "TOOL_CALL", "write_file"],
      [2, "TOOL_RESULT", "write_file"],
      [3, "TOOL_CALL", "http"],
      [4, "MESSAGE", "user"],
      [5, "TOOL_CALL", "run_command"],
      [6, "TOOL_CALL", "run_command"],
      [7, "TOOL_RESULT", "run_command"],
      [8, "TOOL_RESULT", "run_command"],
    ]);
    expect(inOrder[0]!.skipped).toEqual([]);

    const project = await makeTestProject("otlp-order-reversed");
    await send(project.id, [...IN_ORDER].reverse());
    expect(await sessionsOf(project.id)).toEqual(inOrder);
    // Sent again, a batch adds nothing.
    const again = await send(project.id, ["chat2", "agent1"]);
    expect(again.flatMap((r) => r.sessions.map((s) => s.newSpans))).toEqual([0, 0]);
    expect(await sessionsOf(project.id)).toEqual(inOrder);
  });

  it("a later turn first, and children mapped without their parent once their wait was over, give the same session", async () => {
    const inOrder = await receive("otlp-order-reference", IN_ORDER);
    const now = new Date();
    const later = new Date(now.getTime() + 5 * 60_000);
    const project = await makeTestProject("otlp-order-shuffled");
    // The first turn's tool span and request wait for their parent, the agent span.
    const held = await send(project.id, [
      ["post1", now],
      ["tool1", now],
    ]);
    expect(held.map((r) => r.held)).toEqual([1, 1]);
    // The second turn comes whole; then a batch after their wait maps them without their parent:
    // the tool span into its trace's own session (the trace names no conversation yet), the request
    // skipped there (what it was for is decided by its missing parent).
    await send(project.id, [
      ["chat2", later],
      ["tool2", later],
      ["agent2", later],
      ["tool3", later],
      ["tool1", later],
    ]);
    const early = await sessionsOf(project.id);
    expect(early.map((s) => [s.externalId, s.spanCount, s.skipped.length])).toEqual([
      [T1, 2, 1],
      [CONVERSATION, expect.any(Number), 0],
    ]);
    // The first turn's request now names the trace's conversation: the tool span joins it, the
    // request is skipped in it, until the agent span comes.
    await send(project.id, [["chat1", later]]);
    expect((await sessionsOf(project.id)).map((s) => [s.externalId, s.skipped.length])).toEqual([[CONVERSATION, 1]]);
    await send(project.id, [
      ["agent1", later],
      ["tool2", later],
    ]);
    expect(await sessionsOf(project.id)).toEqual(inOrder);
  });

  it("a call known only from a request takes the outcome the later request's history gives it, in either order", async () => {
    const trace = "3".repeat(32);
    const deploy = call("call_9", "deploy", { env: "prod" });
    // No execute_tool span: the call is known from the model's output, its result from the next request.
    const asked = chat(trace, id(11), "", 40, [first], [deploy]);
    const next = chat(trace, id(12), "", 45, [first, deploy, answer("call_9", "deployed")], [text("assistant", "Deployed.")]);
    const outcomes = async (label: string, order: Array<typeof asked>) => {
      const project = await makeTestProject(label);
      for (const one of order) await receiveOtlpTraces(project.id, request(one), { requester: "test" });
      return sessionsOf(project.id);
    };
    const inOrder = await outcomes("otlp-order-outcome", [asked, next]);
    const calls = inOrder[0]!.spans.filter((s) => s.kind === "TOOL_CALL");
    expect(calls.map((s) => [s.toolName, s.outcome])).toEqual([["deploy", "SUCCEEDED"]]);
    expect(await outcomes("otlp-order-outcome-reversed", [next, asked, next])).toEqual(inOrder);
  });
});

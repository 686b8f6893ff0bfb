/**
 * OpenTelemetry GenAI spans (OTLP/JSON), following the gen_ai.* semantic conventions.
 *
 * Records: each span of an OTLP document (numbered by its ordinal), each log record of its
 * `resourceLogs`, or each line of a Collector file-exporter JSON Lines file (see ./otlp-read).
 * Every span is used, ignored (OTEL_IGNORED, below) or skipped with its reason.
 *
 * Mapping:
 * - Sessions by `gen_ai.conversation.id` (a span without one inherits its nearest ancestor's,
 *   wherever the ancestor is in the file, or its trace's when the trace has exactly one); failing
 *   that, the trace id. A trace with no GenAI span at all is not an agent's and is ignored.
 * - Chat spans (`chat`, `text_completion`, `generate_content`, or any span carrying messages):
 *   their messages are MESSAGEs (text parts by role, reasoning parts with role "reasoning"), from
 *   `gen_ai.system_instructions` / `gen_ai.input.messages` / `gen_ai.output.messages`, the older
 *   span events (`gen_ai.user.message`, `gen_ai.choice`, ...) or indexed `gen_ai.prompt.N.*`
 *   attributes. Each request repeats the history before it, so a message is kept only the first
 *   time it appears (counting repeats); input messages take the span's start time, output messages
 *   its end time. Agent spans (`invoke_agent`, `create_agent`, `invoke_workflow`) give the
 *   session's title and contribute messages only to a conversation with no chat messages of its own.
 * - `execute_tool` spans are a TOOL_CALL (start; toolName = `gen_ai.tool.name`, toolInput and body
 *   = `gen_ai.tool.call.arguments`, or Google ADK's `gcp.vertex.agent.tool_call_args`) and, when
 *   the span says how it ended, a TOOL_RESULT (end; `gen_ai.tool.call.result` or ADK's
 *   `gcp.vertex.agent.tool_response`). Outcome (toolOutcome): status ERROR or `error.type`, or a
 *   non-zero `process.exit.code`, FAILED; exit code 0, a result, or status OK on an ended span,
 *   SUCCEEDED; no end or nothing to go on, UNKNOWN. Tool calls and responses inside messages
 *   become spans only when no execute_tool span has their call id.
 * - Outgoing requests of other instrumentation (CLIENT or PRODUCER spans: HTTP, RPC, database,
 *   messaging) in an agent's trace are evidence of what its tools did (an MCP tool's HTTP POST, a
 *   database write) and become TOOL_CALLs named `http`, `rpc`, `db` or `messaging` with their
 *   method and target; except requests that carry a model call (below a model-call span) and
 *   HTTP GET/HEAD/OPTIONS/TRACE, which are ignored.
 * - Compaction, a convention of this importer (the GenAI conventions have none yet): a span
 *   whose `gen_ai.operation.name` is `compact` (or that carries `gen_ai.compaction.summary`), or a
 *   span event named `gen_ai.compaction`. The summary text is `gen_ai.compaction.summary`, else the
 *   span's output message text. It replaced the OTel spans listed in
 *   `gen_ai.compaction.replaced_span_ids` (those present in the file), or when that attribute is
 *   absent, everything in the conversation since the previous compaction.
 * - Skipped, making the session incomplete: an outgoing request whose parent is not in the file
 *   (it may have been a model call's transport or a tool's effect), a model-call span with no captured content whose
 *   call is not recorded on a related span, a tool span whose arguments were not captured (its
 *   TOOL_CALL is still kept), a GenAI operation this importer does not know, event-based GenAI log
 *   records (their messages are not read from logs), unreadable message attributes.
 * - Order: by time, then by position in the file.
 */
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import { ImportCollector, type DraftSpan, type SessionDraft } from "./builder";
import {
  eventMessages,
  IGNORED_PART_TYPES,
  indexedMessages,
  messageKey,
  messagesOf,
  systemInstructionsOf,
  type Message,
} from "./otel-messages";
import { jsonAttribute } from "./otel-values";
import { readOtlp, readOtlpRequest, type OtlpRead, type OtlpSpan } from "./otlp-read";
import type { ImportResult, TranscriptImporter } from "./types";
import { isRecord, looksInjected, parseUnixNanos, str, titleFrom, utf8 } from "./text";

const CHAT_OPERATIONS = new Set(["chat", "text_completion", "generate_content"]);
const AGENT_OPERATIONS = new Set(["invoke_agent", "create_agent", "invoke_workflow"]);
const COMPACT_OPERATIONS = new Set(["compact", "compaction"]);
const IGNORED_OPERATIONS = new Set(["embeddings", "retrieval"]);
const READ_ONLY_METHODS = new Set(["GET", "HEAD", "OPTIONS", "TRACE"]);
/** Attributes instrumentations copy onto every span of a conversation (baggage): not GenAI work. */
const CONTEXT_ATTRIBUTES = new Set(["gen_ai.conversation.id", "gen_ai.task.id", "gen_ai.agent.id", "gen_ai.agent.name"]);

/**
 * Spans and log records that record nothing an evidence question asks about, ignored on purpose,
 * by the type reported in `ignoredByType`. Never a span carrying a message, a tool call or result.
 */
export const OTEL_IGNORED: Readonly<Record<string, string>> = {
  "gen_ai:embeddings": "vectors computed from text, no action",
  "gen_ai:retrieval": "a lookup of grounding documents, no action",
  "model-call:recorded-elsewhere":
    "a model-call span without content whose call is recorded, with its messages, on a parent or child span (frameworks nest a wrapper and a provider span per call)",
  "request:model-transport":
    "a request made below a model-call span: the transport of the call (whose content is the call itself) or the framework's bookkeeping around it",
  "request:read-only": "an HTTP GET/HEAD/OPTIONS/TRACE: reads nothing into effect",
  "span:incoming": "a SERVER or CONSUMER span of other instrumentation: a request received, not an action taken",
  "span:internal": "an INTERNAL span of other instrumentation (framework bookkeeping), carrying no gen_ai content",
  "span:non-genai-trace": "a span of a trace with no GenAI span at all: not an agent's work",
  "log:non-genai": "a log record that is no GenAI event",
};

export const COMPACTION_SUMMARY = "gen_ai.compaction.summary";
export const COMPACTION_REPLACED = "gen_ai.compaction.replaced_span_ids";
export const COMPACTION_EVENT = "gen_ai.compaction";
/** Google ADK writes tool arguments and responses under its own keys (content capture on). */
const ADK_TOOL_ARGS = "gcp.vertex.agent.tool_call_args";
const ADK_TOOL_RESPONSE = "gcp.vertex.agent.tool_response";
const ADK_LLM_CONTENT = ["gcp.vertex.agent.llm_request", "gcp.vertex.agent.llm_response"];

/** A span to be, or a summary, at a point in time; sorted before seqs are given. */
type Item =
  | { time: bigint; order: number; source: OtlpSpan; span: Omit<DraftSpan, "occurredAt"> }
  | { time: bigint; order: number; source: OtlpSpan; summary: string; replacedSpanIds?: string[] };

/** What the whole file knows about a span's place: its parent, and model calls around it. */
class Trees {
  private readonly byId = new Map<string, OtlpSpan>();
  /** Spans with a descendant model-call span that carries messages. */
  private readonly aboveContent = new Set<OtlpSpan>();

  constructor(spans: OtlpSpan[]) {
    for (const s of spans) this.byId.set(`${s.traceId}/${s.spanId}`, s);
    for (const s of spans) {
      if (!hasMessages(s)) continue;
      for (const a of this.ancestors(s)) this.aboveContent.add(a);
    }
  }

  parent(s: OtlpSpan): OtlpSpan | undefined {
    return s.parentSpanId ? this.byId.get(`${s.traceId}/${s.parentSpanId}`) : undefined;
  }

  /** Ancestors nearest first; a cycle of parent ids ends the walk. */
  ancestors(s: OtlpSpan): OtlpSpan[] {
    const out: OtlpSpan[] = [];
    const seen = new Set<OtlpSpan>([s]);
    for (let p = this.parent(s); p && !seen.has(p); p = this.parent(p)) {
      seen.add(p);
      out.push(p);
    }
    return out;
  }

  /** The call of a content-less model span is recorded, with content, on an ancestor or descendant. */
  callRecordedElsewhere(s: OtlpSpan): boolean {
    return this.aboveContent.has(s) || this.ancestors(s).some((a) => isModelCall(a) && hasMessages(a));
  }

  underModelCall(s: OtlpSpan): boolean {
    return this.ancestors(s).some(isModelCall);
  }
}

class ConversationMapper {
  private readonly items: Item[] = [];
  private order = 0;
  /** How many times each message has been kept, to drop the history a later request repeats. */
  private readonly kept = new Map<string, number>();
  private readonly summaries = new Set<string>();
  private readonly toolSpanCallIds = new Set<string>();
  private readonly messageCalls = new Map<string, Omit<DraftSpan, "occurredAt">>();
  private readonly draft: SessionDraft;

  constructor(
    private readonly collector: ImportCollector,
    private readonly trees: Trees,
    private readonly spans: OtlpSpan[],
    private readonly ignore: (position: number, type: string) => void,
    externalId: string,
  ) {
    this.draft = collector.session(externalId);
    for (const s of spans) {
      const id = str(s.attrs.get("gen_ai.tool.call.id"));
      if (operation(s) === "execute_tool" && id) this.toolSpanCallIds.add(id);
    }
  }

  map(): void {
    const useAgentMessages = !this.spans.some((s) => CHAT_OPERATIONS.has(operation(s) ?? "") && hasMessages(s));
    for (const s of this.spans) this.span(s, useAgentMessages);
    this.emit();
  }

  private skip(s: OtlpSpan, reason: string): void {
    this.collector.skip(s.position, reason, this.draft);
  }

  private push(
    source: OtlpSpan,
    time: bigint | undefined,
    item: { span: Omit<DraftSpan, "occurredAt"> } | { summary: string; replacedSpanIds?: string[] },
  ): void {
    this.items.push({ time: time ?? source.start ?? source.end ?? 0n, order: this.order++, source, ...item });
  }

  private span(s: OtlpSpan, useAgentMessages: boolean): void {
    const op = operation(s);
    for (const e of s.events) if (e.name === COMPACTION_EVENT) this.compaction(s, e.attrs, e.time ?? s.end, undefined);
    if (COMPACT_OPERATIONS.has(op ?? "") || s.attrs.has(COMPACTION_SUMMARY)) return this.compaction(s, s.attrs, s.end, s);
    if (op === "execute_tool") return this.tool(s);
    if (op !== undefined && IGNORED_OPERATIONS.has(op)) return this.ignore(s.position, `gen_ai:${op}`);
    if (AGENT_OPERATIONS.has(op ?? "")) {
      // The agent's name and conversation are session metadata; its messages repeat its chats'.
      if (useAgentMessages && hasMessages(s)) return this.messages(s);
      this.collector.use(s.position);
      return;
    }
    if (hasMessages(s)) return this.messages(s);
    if (isModelCall(s)) {
      if (this.trees.callRecordedElsewhere(s)) return this.ignore(s.position, "model-call:recorded-elsewhere");
      const vendor = ADK_LLM_CONTENT.some((k) => s.attrs.has(k));
      return this.skip(
        s,
        vendor
          ? "model call whose content is only in Google ADK's gcp.vertex.agent.llm_request/llm_response attributes, which are not read; its messages are missing"
          : "model call without captured content (gen_ai.input.messages / gen_ai.output.messages absent); its messages are missing",
      );
    }
    if (isGenAi(s)) {
      return this.skip(s, `GenAI span${op ? ` of operation "${op}"` : ` "${s.name}"`} that this importer cannot map; skipped`);
    }
    this.other(s);
  }

  /** A span of other instrumentation inside an agent's trace. */
  private other(s: OtlpSpan): void {
    if (s.kind === "SERVER" || s.kind === "CONSUMER") return this.ignore(s.position, "span:incoming");
    const request = requestOf(s);
    if (!request) return this.ignore(s.position, "span:internal");
    if (this.trees.underModelCall(s)) return this.ignore(s.position, "request:model-transport");
    if (s.parentSpanId && !this.trees.parent(s)) {
      // Whether it carried a model call or did a tool's work is decided by ancestors not in the file.
      return this.skip(s, `outgoing request whose parent span ${s.parentSpanId} is not in the file; what it was for is unknown`);
    }
    if (request.toolName === "http" && READ_ONLY_METHODS.has(String(request.input.method).toUpperCase()))
      return this.ignore(s.position, "request:read-only");
    const outcome = requestOutcome(s);
    this.push(s, s.start, {
      span: {
        kind: "TOOL_CALL",
        toolName: request.toolName,
        toolInput: request.input,
        outcome,
        body: utf8(JSON.stringify(request.input)),
        sourceLine: s.position,
        sourceId: s.spanId,
      },
    });
  }

  private tool(s: OtlpSpan): void {
    const toolName = str(s.attrs.get("gen_ai.tool.name")) ?? (s.name.replace(/^execute_tool\s*/, "") || "tool");
    const callId = str(s.attrs.get("gen_ai.tool.call.id"));
    const args = s.attrs.get("gen_ai.tool.call.arguments") ?? s.attrs.get(ADK_TOOL_ARGS);
    const result = s.attrs.get("gen_ai.tool.call.result") ?? s.attrs.get(ADK_TOOL_RESPONSE);
    const stated = s.attrs.get("process.exit.code");
    const exitCode = typeof stated === "number" && Number.isInteger(stated) ? stated : undefined;
    const outcome = toolOutcome({ failed: s.failed, exitCode, ended: s.end !== undefined, result, status: s.status });
    const sourceId = callId ?? s.spanId;
    this.push(s, s.start, {
      span: {
        kind: "TOOL_CALL",
        toolName,
        ...inputOf(args),
        outcome,
        ...(exitCode !== undefined ? { exitCode } : {}),
        body: utf8(textOf(args)),
        sourceLine: s.position,
        sourceId,
      },
    });
    if (args === undefined) this.skip(s, `arguments of tool call "${toolName}" were not captured; what it acted on is unknown`);
    if (result === undefined && !s.failed && exitCode === undefined) return;
    const body =
      result !== undefined ? textOf(result) : (s.statusMessage ?? exceptionOf(s) ?? str(s.attrs.get("error.type")) ?? "");
    this.push(s, s.end, {
      span: {
        kind: "TOOL_RESULT",
        toolName,
        ...(exitCode !== undefined ? { exitCode } : {}),
        body: utf8(body),
        sourceLine: s.position,
        sourceId,
      },
    });
  }

  private compaction(s: OtlpSpan, attrs: Map<string, unknown>, time: bigint | undefined, outputsOf: OtlpSpan | undefined): void {
    let summary = str(attrs.get(COMPACTION_SUMMARY));
    if (summary === undefined && outputsOf) {
      const outputs = this.read(outputsOf, "gen_ai.output.messages");
      summary = outputs.flatMap((m) => m.parts.flatMap((p) => (p.type === "text" ? [p.text] : []))).join("\n");
    }
    const listed = attrs.get(COMPACTION_REPLACED);
    const replacedSpanIds = Array.isArray(listed) ? listed.filter((x): x is string => typeof x === "string") : undefined;
    this.summaries.add(summary ?? "");
    this.push(s, time, { summary: summary ?? "", ...(replacedSpanIds ? { replacedSpanIds } : {}) });
  }

  private read(s: OtlpSpan, key: string): Message[] {
    const value = s.attrs.get(key);
    if (value === undefined) return [];
    const listed = messagesOf(value);
    if ("error" in listed) {
      this.skip(s, `${key} is ${listed.error}; those messages skipped`);
      return [];
    }
    return listed.messages;
  }

  private messages(s: OtlpSpan): void {
    const inputs: Message[] = [];
    const outputs: Message[] = [];
    const system = systemInstructionsOf(s.attrs.get("gen_ai.system_instructions"));
    if (system) inputs.push(system);
    inputs.push(...this.read(s, "gen_ai.input.messages"), ...indexedMessages(s.attrs, "gen_ai.prompt"));
    outputs.push(...this.read(s, "gen_ai.output.messages"), ...indexedMessages(s.attrs, "gen_ai.completion"));
    for (const e of s.events) {
      const found = eventMessages(e.name, e.attrs);
      if (found) (found.output ? outputs : inputs).push(...found.messages);
    }
    // Merged into the conversation even when every message repeats earlier history.
    this.collector.use(s.position);
    const seenHere = new Map<string, number>();
    for (const m of inputs) {
      const key = messageKey(m);
      const count = (seenHere.get(key) ?? 0) + 1;
      seenHere.set(key, count);
      if (count <= (this.kept.get(key) ?? 0)) continue;
      this.kept.set(key, count);
      this.message(s, m, s.start, true);
    }
    for (const m of outputs) {
      const key = messageKey(m);
      this.kept.set(key, (this.kept.get(key) ?? 0) + 1);
      this.message(s, m, s.end ?? s.start, false);
    }
  }

  private message(s: OtlpSpan, m: Message, time: bigint | undefined, input: boolean): void {
    const base = { sourceLine: s.position, sourceId: s.spanId };
    for (const part of m.parts) {
      switch (part.type) {
        case "text":
          // A compaction summary fed back as history is already its SUMMARY span.
          if (input && this.summaries.has(part.text)) continue;
          this.push(s, time, { span: { ...base, kind: "MESSAGE", role: m.role, body: utf8(part.text) } });
          break;
        case "reasoning":
          this.push(s, time, { span: { ...base, kind: "MESSAGE", role: "reasoning", body: utf8(part.text) } });
          break;
        case "tool_call": {
          if (part.id && this.toolSpanCallIds.has(part.id)) continue;
          const call: Omit<DraftSpan, "occurredAt"> = {
            ...base,
            kind: "TOOL_CALL",
            toolName: part.name,
            ...inputOf(part.arguments),
            body: utf8(textOf(part.arguments)),
            ...(part.id ? { sourceId: part.id } : {}),
          };
          if (part.id) this.messageCalls.set(part.id, call);
          this.push(s, time, { span: call });
          break;
        }
        case "tool_call_response": {
          if (part.id && this.toolSpanCallIds.has(part.id)) continue;
          const call = part.id ? this.messageCalls.get(part.id) : undefined;
          // The parts form has no error flag: a response that is an error object failed, any
          // other response means the call ran.
          if (call) call.outcome = responseFailed(part.response) ? "FAILED" : "SUCCEEDED";
          this.push(s, time, {
            span: {
              ...base,
              kind: "TOOL_RESULT",
              body: utf8(textOf(part.response)),
              ...(call?.toolName ? { toolName: call.toolName } : {}),
              ...(part.id ? { sourceId: part.id } : {}),
            },
          });
          break;
        }
        case "other":
          if (!IGNORED_PART_TYPES.has(part.name)) this.skip(s, `message part of unknown type "${part.name}"; skipped`);
      }
    }
  }

  /** Sorts by time and hands the items to the session in that order. */
  private emit(): void {
    const draft = this.draft;
    const bySpan = new Map<string, DraftSpan[]>();
    const remember = (spanId: string, span: DraftSpan) => {
      const list = bySpan.get(spanId);
      if (list) list.push(span);
      else bySpan.set(spanId, [span]);
    };
    const untimed = new Set<OtlpSpan>();
    this.items.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.order - b.order));
    for (const item of this.items) {
      const occurredAt = item.time > 0n ? parseUnixNanos(item.time.toString()) : undefined;
      if (!occurredAt && !untimed.has(item.source)) {
        untimed.add(item.source);
        this.collector.issue(item.source.position, "span without a start or end time; using the nearest known time");
      }
      if ("span" in item) {
        const span = draft.add({ ...item.span, occurredAt });
        remember(item.source.spanId, span);
        if (draft.title === undefined && span.kind === "MESSAGE" && span.role === "user") {
          const text = new TextDecoder().decode(span.body);
          if (!looksInjected(text)) draft.title = titleFrom(text);
        }
        continue;
      }
      const replaced = item.replacedSpanIds
        ? item.replacedSpanIds.flatMap((id) => bySpan.get(id) ?? [])
        : [...draft.sinceLastCompaction()];
      const summary = draft.addSummary(
        { occurredAt, sourceLine: item.source.position, sourceId: item.source.spanId, body: utf8(item.summary) },
        replaced,
      );
      remember(item.source.spanId, summary);
    }
    if (draft.title === undefined) {
      const agent = this.spans.map((s) => str(s.attrs.get("gen_ai.agent.name"))).find((n) => n !== undefined);
      if (agent) draft.title = agent;
    }
  }
}

function operation(s: OtlpSpan): string | undefined {
  return str(s.attrs.get("gen_ai.operation.name"));
}

function hasMessages(s: OtlpSpan): boolean {
  for (const key of s.attrs.keys()) {
    if (
      key === "gen_ai.input.messages" ||
      key === "gen_ai.output.messages" ||
      key === "gen_ai.system_instructions" ||
      key.startsWith("gen_ai.prompt.") ||
      key.startsWith("gen_ai.completion.")
    )
      return true;
  }
  return s.events.some((e) => e.name.startsWith("gen_ai.") && e.name !== COMPACTION_EVENT);
}

/** A model call: a chat-like operation, or a span naming a requested model without an operation. */
function isModelCall(s: OtlpSpan): boolean {
  const op = operation(s);
  if (op !== undefined) return CHAT_OPERATIONS.has(op);
  return s.attrs.has("gen_ai.request.model") || ADK_LLM_CONTENT.some((k) => s.attrs.has(k));
}

/** Any gen_ai.* attribute beyond the conversation context instrumentations copy onto every span. */
function isGenAi(s: OtlpSpan): boolean {
  for (const key of s.attrs.keys()) if (key.startsWith("gen_ai.") && !CONTEXT_ATTRIBUTES.has(key)) return true;
  return s.events.some((e) => e.name.startsWith("gen_ai."));
}

/** What a CLIENT/PRODUCER span of other instrumentation asked of the world, if it says. */
function requestOf(s: OtlpSpan): { toolName: string; input: Record<string, unknown> } | undefined {
  if (s.kind !== "CLIENT" && s.kind !== "PRODUCER") return undefined;
  const a = s.attrs;
  const method = str(a.get("http.request.method")) ?? str(a.get("http.method"));
  if (method) {
    const url = str(a.get("url.full")) ?? str(a.get("http.url")) ?? str(a.get("server.address"));
    return { toolName: "http", input: { method, ...(url ? { url } : {}) } };
  }
  const statement = str(a.get("db.query.text")) ?? str(a.get("db.statement"));
  const system = str(a.get("db.system.name")) ?? str(a.get("db.system"));
  if (statement || system) {
    const op = str(a.get("db.operation.name")) ?? str(a.get("db.operation"));
    return {
      toolName: "db",
      input: { ...(system ? { system } : {}), ...(op ? { operation: op } : {}), ...(statement ? { statement } : {}) },
    };
  }
  const rpc = str(a.get("rpc.method"));
  if (rpc) {
    const service = str(a.get("rpc.service"));
    const address = str(a.get("server.address"));
    return {
      toolName: "rpc",
      input: { method: service && !rpc.includes("/") ? `${service}/${rpc}` : rpc, ...(address ? { address } : {}) },
    };
  }
  const destination = str(a.get("messaging.destination.name"));
  if (destination) {
    const op = str(a.get("messaging.operation.name")) ?? str(a.get("messaging.operation"));
    return { toolName: "messaging", input: { destination, ...(op ? { operation: op } : {}) } };
  }
  return { toolName: "request", input: { name: s.name } };
}

/** Outgoing request: failed by status, HTTP status >= 400 or a non-OK RPC code; else ran if it ended. */
function requestOutcome(s: OtlpSpan): ToolOutcome {
  if (s.failed) return "FAILED";
  const http = Number(s.attrs.get("http.response.status_code") ?? s.attrs.get("http.status_code"));
  if (Number.isFinite(http) && http >= 400) return "FAILED";
  const grpc = s.attrs.get("rpc.grpc.status_code") ?? s.attrs.get("rpc.response.status_code");
  if (grpc !== undefined && grpc !== 0 && grpc !== "0" && grpc !== "OK") return "FAILED";
  return s.end !== undefined ? "SUCCEEDED" : "UNKNOWN";
}

/**
 * A tool span's outcome from the conventions and the span itself: status ERROR or `error.type`,
 * or a non-zero `process.exit.code`, failed; exit code 0, a result, or an explicit status OK on an
 * ended span, succeeded; a span with no end, or none of these, unknown.
 */
export function toolOutcome(t: {
  failed: boolean;
  exitCode?: number;
  ended: boolean;
  result: unknown;
  status: OtlpSpan["status"];
}): ToolOutcome {
  if (t.failed || (t.exitCode !== undefined && t.exitCode !== 0)) return "FAILED";
  if (t.exitCode === 0) return "SUCCEEDED";
  if (!t.ended) return "UNKNOWN";
  return t.result !== undefined || t.status === "OK" ? "SUCCEEDED" : "UNKNOWN";
}

function responseFailed(response: unknown): boolean {
  const parsed = jsonAttribute(response);
  const value = parsed.ok ? parsed.value : response;
  return (
    isRecord(value) && (value.isError === true || value.is_error === true || (value.error !== undefined && value.error !== null))
  );
}

function exceptionOf(s: OtlpSpan): string | undefined {
  const e = s.events.find((x) => x.name === "exception");
  return e ? str(e.attrs.get("exception.message")) : undefined;
}

/** A value's text: strings as they are, anything else as JSON. */
function textOf(value: unknown): string {
  if (value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** toolInput from arguments: a JSON string parsed, structured values as they are. */
function inputOf(args: unknown): { toolInput?: unknown } {
  if (args === undefined) return {};
  const parsed = jsonAttribute(args);
  return { toolInput: parsed.ok ? parsed.value : args };
}

/** Conversation of each span: its own id, an ancestor's, its trace's only one, or the trace id. */
function conversations(spans: OtlpSpan[], trees: Trees): Map<string, OtlpSpan[]> {
  const own = (s: OtlpSpan) => str(s.attrs.get("gen_ai.conversation.id"));
  const idOf = (s: OtlpSpan) =>
    own(s) ??
    trees
      .ancestors(s)
      .map(own)
      .find((x) => x !== undefined);
  const resolved = new Map(spans.map((s) => [s, idOf(s)]));
  const perTrace = new Map<string, Set<string>>();
  for (const s of spans) {
    const id = resolved.get(s);
    if (id) perTrace.set(s.traceId, (perTrace.get(s.traceId) ?? new Set()).add(id));
  }
  const groups = new Map<string, OtlpSpan[]>();
  for (const s of spans) {
    const traceIds = perTrace.get(s.traceId);
    const only = traceIds?.size === 1 ? [...traceIds][0] : undefined;
    const key = resolved.get(s) ?? only ?? s.traceId;
    const group = groups.get(key);
    if (group) group.push(s);
    else groups.set(key, [s]);
  }
  return groups;
}

/** Remembers which records were skipped, so a later ignore of the same line does not hide it. */
class OtelCollector extends ImportCollector {
  private readonly skippedLines = new Set<number>();

  constructor() {
    super("otel-genai");
  }

  override skip(line: number, reason: string, draft?: SessionDraft): void {
    this.skippedLines.add(line);
    super.skip(line, reason, draft);
  }

  ignoreUnlessSkipped(line: number, type: string): void {
    if (!this.skippedLines.has(line)) this.ignore(line, type);
  }
}

function mapRead(collector: OtelCollector, read: OtlpRead): ImportResult {
  // Ignores are applied last, so that a JSON Lines line holding a skipped or used span as well
  // as an ignored one counts as skipped or used.
  const ignored: Array<[number, string]> = [];
  const ignore = (position: number, type: string) => ignored.push([position, type]);
  for (const log of read.logs) {
    if (log.name.startsWith("gen_ai."))
      collector.skip(log.position, `event-based GenAI log record "${log.name}": messages in logs are not imported; skipped`);
    else ignore(log.position, "log:non-genai");
  }
  const genAiTraces = new Set(read.spans.filter(isGenAi).map((s) => s.traceId));
  const spans = read.spans.filter((s) => {
    if (genAiTraces.has(s.traceId)) return true;
    ignore(s.position, "span:non-genai-trace");
    return false;
  });
  const trees = new Trees(spans);
  for (const [externalId, group] of conversations(spans, trees)) {
    const sorted = [...group].sort((a, b) => {
      const at = a.start ?? a.end ?? 0n;
      const bt = b.start ?? b.end ?? 0n;
      return at < bt ? -1 : at > bt ? 1 : a.position - b.position;
    });
    new ConversationMapper(collector, trees, sorted, ignore, externalId).map();
  }
  for (const [position, type] of ignored) collector.ignoreUnlessSkipped(position, type);
  return collector.result();
}

/** Imports an OTLP/JSON file: one trace request document, or JSON Lines of them. */
export function parseOtelGenAi(bytes: Uint8Array): ImportResult {
  const collector = new OtelCollector();
  return mapRead(collector, readOtlp(bytes, collector));
}

/**
 * Imports an already decoded ExportTraceServiceRequest (the body an OTLP/HTTP receiver gets, as
 * its JSON mapping): the same mapping as a file, with spans numbered by their ordinal.
 */
export function parseOtlpRequest(request: unknown): ImportResult {
  const collector = new OtelCollector();
  return mapRead(collector, readOtlpRequest(request, collector));
}

export const otelGenAiImporter: TranscriptImporter = {
  format: "otel-genai",
  detect(head) {
    const text = head.replace(/^\uFEFF/, "");
    if (/^\s*\{\s*"resourceSpans"\s*:/.test(text)) return 0.95;
    if (/^\s*\{\s*"batches"\s*:\s*\[\s*\{\s*"resource"/.test(text)) return 0.9;
    return /"resourceSpans"\s*:/.test(text) && /"gen_ai\./.test(text) ? 0.9 : 0;
  },
  parse: parseOtelGenAi,
};

/**
 * OpenTelemetry GenAI spans (OTLP/JSON, or Jaeger's JSON export of them), following the gen_ai.*
 * semantic conventions.
 *
 * Records: each span of an OTLP document (numbered by its ordinal), each log record of its
 * `resourceLogs`, or each line of a Collector file-exporter JSON Lines file (see ./otlp-read);
 * each span of a Jaeger JSON document, numbered by its ordinal (see ./jaeger-read). Every span is
 * used, ignored (OTEL_IGNORED, below) or skipped with its reason.
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
 *   `gcp.vertex.agent.tool_response`); OpenLLMetry's LangChain payloads are unwrapped to the
 *   tool's input, call id and ToolMessage (see ./tool-span). Outcome (toolOutcome): status
 *   ERROR or `error.type`, a non-zero `process.exit.code`, or a LangChain ToolMessage of status
 *   "error", FAILED; exit code 0, a result, or status OK on an ended span, SUCCEEDED; no end or
 *   nothing to go on, UNKNOWN. Tool calls and responses inside messages become spans only when
 *   no execute_tool span has their call id.
 * - Workflow steps (OpenLLMetry's `execute_task` spans of LangChain chains and LangGraph nodes,
 *   and spans recording a step's input and output under `traceloop.entity.*` or
 *   `ioa_observe.entity.*`): their input and output are the framework's state, the messages and
 *   tool calls its model-call and tool spans record; they are used (merged) when the
 *   conversation has model-call messages, and skipped otherwise (their serialisation is not read).
 * - Outgoing requests of other instrumentation (CLIENT or PRODUCER spans: HTTP, RPC, database,
 *   messaging) in an agent's trace are evidence of what its tools did (an MCP tool's HTTP POST, a
 *   database write) and become TOOL_CALLs named `http`, `rpc`, `db` or `messaging` with their
 *   method and target (`request` and the span name when it names no protocol); except requests
 *   that carry a model call (below a model-call span), HTTP GET/HEAD/OPTIONS/TRACE, and a span
 *   naming no protocol below another request (a traced helper of that request's client), which
 *   are ignored.
 * - Compaction as the GenAI conventions report it: a `compaction` message part (the summary is its
 *   `content`, empty when the state is opaque) replaces everything since the previous compaction,
 *   mapped once however often later requests repeat it; a model call flagged
 *   `gen_ai.conversation.compacted` after one that was not marks a compaction before it, an empty
 *   summary there unless a summary was reported between the two calls.
 * - Compaction, an older convention of this importer: a span
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
import { ImportCollector, type SessionDraft } from "../shared/builder";
import { jaegerScore } from "./jaeger-read";
import { ConversationMapper } from "./conversation";
import { conversations, isGenAi, Trees } from "./spans";
import { readOtlp, readOtlpRequest } from "./otlp-read";
import type { OtlpRead } from "./otlp-records";
import type { ImportResult, TranscriptImporter } from "../shared/types";

export { COMPACTION_EVENT, COMPACTION_REPLACED, COMPACTION_SUMMARY, toolOutcome } from "./spans";

/**
 * Spans and log records that record nothing an evidence question asks about, ignored on purpose,
 * by the type reported in `ignoredByType`. Never a span carrying a message, a tool call or result.
 * Checked against what the OpenTelemetry semantic conventions define these spans to be (GenAI
 * operations, HTTP/RPC/database/messaging client spans, span kinds) and, for INTERNAL spans,
 * against @opentelemetry/instrumentation-fs, whose file-system changes are read (./fs).
 */
export const OTEL_IGNORED: Readonly<Record<string, string>> = {
  "gen_ai:embeddings": "vectors computed from text, no action",
  "gen_ai:retrieval": "a lookup of grounding documents, no action",
  "model-call:recorded-elsewhere":
    "a model-call span without content whose call is recorded, with its messages, on a parent or child span (frameworks nest a wrapper and a provider span per call)",
  "request:model-transport":
    "a request made below a model-call span: the transport of the call (whose content is the call itself) or the framework's bookkeeping around it",
  "request:read-only": "an HTTP GET/HEAD/OPTIONS/TRACE: reads nothing into effect",
  "request:inside-request":
    "a CLIENT/PRODUCER span naming no protocol (no HTTP, RPC, database or messaging attributes) below another outgoing request: a traced helper step of that request's client (A2A's SDK traces its transport's private methods as CLIENT spans), not a request of its own",
  "span:incoming": "a SERVER or CONSUMER span of other instrumentation: a request received, not an action taken",
  "span:internal":
    "an INTERNAL span of other instrumentation (framework bookkeeping, a Node fs call that only reads), carrying no gen_ai content; an fs call that changes the file system is a call (./otel-fs)",
  "span:non-genai-trace": "a span of a trace with no GenAI span at all: not an agent's work",
  "log:non-genai": "a log record that is no GenAI event",
};

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
    if (/"resourceSpans"\s*:/.test(text) && /"gen_ai\./.test(text)) return 0.9;
    return jaegerScore(text);
  },
  parse: parseOtelGenAi,
};

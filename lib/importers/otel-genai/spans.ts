/**
 * What an OTLP span is to the GenAI mapping (see ./index): its operation, whether it is a
 * model call or carries messages, what an outgoing request asked of the world and how it went, the
 * tree of spans around it, and the conversation it belongs to.
 */
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import { jsonAttribute } from "./values";
import type { OtlpSpan } from "./otlp-records";
import { resolveAlongParents } from "../shared/parent-chain";
import { isRecord, str } from "../shared/text";

export const CHAT_OPERATIONS = new Set(["chat", "text_completion", "generate_content"]);
export const AGENT_OPERATIONS = new Set(["invoke_agent", "create_agent", "invoke_workflow"]);
export const COMPACT_OPERATIONS = new Set(["compact", "compaction"]);
export const IGNORED_OPERATIONS = new Set(["embeddings", "retrieval"]);
/**
 * Where a framework step records its input and output: OpenLLMetry's `execute_task` spans (a
 * LangChain chain or LangGraph node: `gen_ai.task.input` / `gen_ai.task.output`, copied to the
 * `traceloop.entity.*` keys), and the decorated workflow, agent and task spans of OpenLLMetry's
 * and AGNTCY observe's SDKs (`traceloop.entity.*`, `ioa_observe.entity.*`).
 */
export const STEP_OPERATIONS = new Set(["execute_task"]);
const STEP_IO_ATTRIBUTES = [
  "gen_ai.task.input",
  "gen_ai.task.output",
  "traceloop.entity.input",
  "traceloop.entity.output",
  "ioa_observe.entity.input",
  "ioa_observe.entity.output",
];
export const READ_ONLY_METHODS = new Set(["GET", "HEAD", "OPTIONS", "TRACE"]);
/** Attributes instrumentations copy onto every span of a conversation (baggage): not GenAI work. */
const CONTEXT_ATTRIBUTES = new Set(["gen_ai.conversation.id", "gen_ai.task.id", "gen_ai.agent.id", "gen_ai.agent.name"]);

export const COMPACTION_SUMMARY = "gen_ai.compaction.summary";
export const COMPACTION_REPLACED = "gen_ai.compaction.replaced_span_ids";
export const COMPACTION_EVENT = "gen_ai.compaction";
/** The conventions' own flag on a model call whose input is a compacted view of the conversation. */
export const CONVERSATION_COMPACTED = "gen_ai.conversation.compacted";
/** Google ADK writes tool arguments and responses under its own keys (content capture on). */
export const ADK_TOOL_ARGS = "gcp.vertex.agent.tool_call_args";
export const ADK_TOOL_RESPONSE = "gcp.vertex.agent.tool_response";
export const ADK_LLM_CONTENT = ["gcp.vertex.agent.llm_request", "gcp.vertex.agent.llm_response"];

/** What a span inherits from its ancestors, resolved once per span (see ../shared/parent-chain). */
interface Inherited {
  /** Its own gen_ai.conversation.id, else its nearest ancestor's. */
  conversationId: string | undefined;
  /** Some ancestor is a model call. */
  underModelCall: boolean;
  /** Some ancestor is a model call that carries messages. */
  underContentCall: boolean;
}

/** What the whole file knows about a span's place: its parent, and model calls around it. */
export class Trees {
  private readonly byId = new Map<string, OtlpSpan>();
  /** Spans with a descendant model-call span that carries messages. */
  private readonly aboveContent = new Set<OtlpSpan>();
  private readonly inherited: Map<OtlpSpan, Inherited>;
  /** Spans resolved against their ancestors: one per span (the work is linear in the file). */
  readonly visits: number;

  constructor(spans: OtlpSpan[]) {
    for (const s of spans) this.byId.set(`${s.traceId}/${s.spanId}`, s);
    const chain = resolveAlongParents<OtlpSpan, Inherited>(
      spans,
      (s) => this.parent(s),
      (s, above) => {
        const up = typeof above === "object" ? above.value : undefined;
        const p = typeof above === "object" ? this.parent(s) : undefined;
        const pModel = p !== undefined && isModelCall(p);
        return {
          conversationId: ownConversation(s) ?? up?.conversationId,
          underModelCall: pModel || (up?.underModelCall ?? false),
          underContentCall: (pModel && hasMessages(p)) || (up?.underContentCall ?? false),
        };
      },
    );
    this.inherited = chain.values;
    let visits = chain.visits;
    // Each climb stops at a span already marked (its ancestors are marked too), or where a loop was cut.
    for (const s of spans) {
      if (!hasMessages(s)) continue;
      const seen = new Set<OtlpSpan>([s]);
      for (let p = this.parent(s); p && !this.aboveContent.has(p) && !seen.has(p); p = this.parent(p)) {
        seen.add(p);
        this.aboveContent.add(p);
        visits++;
      }
    }
    this.visits = visits;
  }

  parent(s: OtlpSpan): OtlpSpan | undefined {
    return s.parentSpanId ? this.byId.get(`${s.traceId}/${s.parentSpanId}`) : undefined;
  }

  /** The span's gen_ai.conversation.id, else its nearest ancestor's. */
  conversationId(s: OtlpSpan): string | undefined {
    return this.inherited.get(s)?.conversationId ?? ownConversation(s);
  }

  /** The call of a content-less model span is recorded, with content, on an ancestor or descendant. */
  callRecordedElsewhere(s: OtlpSpan): boolean {
    return this.aboveContent.has(s) || (this.inherited.get(s)?.underContentCall ?? false);
  }

  underModelCall(s: OtlpSpan): boolean {
    return this.inherited.get(s)?.underModelCall ?? false;
  }
}

function ownConversation(s: OtlpSpan): string | undefined {
  return str(s.attrs.get("gen_ai.conversation.id"));
}

export function operation(s: OtlpSpan): string | undefined {
  return str(s.attrs.get("gen_ai.operation.name"));
}

export function hasMessages(s: OtlpSpan): boolean {
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

/** A framework step recording its input and output (see STEP_OPERATIONS). */
export function isWorkflowStep(s: OtlpSpan): boolean {
  return STEP_OPERATIONS.has(operation(s) ?? "") || STEP_IO_ATTRIBUTES.some((k) => s.attrs.has(k));
}

/** A model call: a chat-like operation, or a span naming a requested model without an operation. */
export function isModelCall(s: OtlpSpan): boolean {
  const op = operation(s);
  if (op !== undefined) return CHAT_OPERATIONS.has(op);
  return s.attrs.has("gen_ai.request.model") || ADK_LLM_CONTENT.some((k) => s.attrs.has(k));
}

/** Any gen_ai.* attribute beyond the conversation context instrumentations copy onto every span. */
export function isGenAi(s: OtlpSpan): boolean {
  for (const key of s.attrs.keys()) if (key.startsWith("gen_ai.") && !CONTEXT_ATTRIBUTES.has(key)) return true;
  return s.events.some((e) => e.name.startsWith("gen_ai."));
}

/** What a CLIENT/PRODUCER span of other instrumentation asked of the world, if it says. */
export function requestOf(s: OtlpSpan): { toolName: string; input: Record<string, unknown> } | undefined {
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
export function requestOutcome(s: OtlpSpan): ToolOutcome {
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

export function responseFailed(response: unknown): boolean {
  const parsed = jsonAttribute(response);
  const value = parsed.ok ? parsed.value : response;
  return (
    isRecord(value) && (value.isError === true || value.is_error === true || (value.error !== undefined && value.error !== null))
  );
}

export function exceptionOf(s: OtlpSpan): string | undefined {
  const e = s.events.find((x) => x.name === "exception");
  return e ? str(e.attrs.get("exception.message")) : undefined;
}

/** A value's text: strings as they are, anything else as JSON. */
export function textOf(value: unknown): string {
  if (value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** toolInput from arguments: a JSON string parsed, structured values as they are. */
export function inputOf(args: unknown): { toolInput?: unknown } {
  if (args === undefined) return {};
  const parsed = jsonAttribute(args);
  return { toolInput: parsed.ok ? parsed.value : args };
}

/** Conversation of each span: its own id, an ancestor's, its trace's only one, or the trace id. */
export function conversations(spans: OtlpSpan[], trees: Trees): Map<string, OtlpSpan[]> {
  const resolved = new Map(spans.map((s) => [s, trees.conversationId(s)]));
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

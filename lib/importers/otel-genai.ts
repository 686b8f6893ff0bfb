/**
 * OpenTelemetry GenAI spans (OTLP/JSON), following the gen_ai.* semantic conventions.
 *
 * Mapping:
 * - Sessions by `gen_ai.conversation.id` (a span without one inherits its nearest ancestor's, or
 *   its trace's when the trace has exactly one); failing that, the trace id.
 * - Chat spans (`chat`, `text_completion`, `generate_content`): their messages are MESSAGEs
 *   (text parts by role, reasoning parts with role "reasoning"). Each request repeats the history
 *   before it, so a message is kept only the first time it appears (counting repeats); input
 *   messages take the span's start time, output messages its end time. Agent spans
 *   (`invoke_agent`, `create_agent`) contribute messages only to a conversation with no chat
 *   messages of its own.
 * - `execute_tool` spans are a TOOL_CALL (start; toolName = `gen_ai.tool.name`, toolInput and body
 *   = `gen_ai.tool.call.arguments`) and a TOOL_RESULT (end; body = `gen_ai.tool.call.result`;
 *   exit code from `process.exit.code`, else 1 when the span failed, else 0). Tool calls and
 *   responses inside messages become spans only when no execute_tool span has their call id.
 * - Compaction, a convention of this importer (the GenAI conventions have none yet): a span
 *   whose `gen_ai.operation.name` is `compact` (or that carries `gen_ai.compaction.summary`), or a
 *   span event named `gen_ai.compaction`. The summary text is `gen_ai.compaction.summary`, else the
 *   span's output message text. It replaced the OTel spans listed in
 *   `gen_ai.compaction.replaced_span_ids` (those present in the file), or when that attribute is
 *   absent, everything in the conversation since the previous compaction.
 * - Order: by time, then by position in the file.
 */
import { ImportCollector, type DraftSpan } from "./builder";
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
import { readOtlp, type OtlpSpan } from "./otlp-read";
import type { ImportResult, TranscriptImporter } from "./types";
import { looksInjected, parseUnixNanos, str, titleFrom, utf8 } from "./text";

const CHAT_OPERATIONS = new Set(["chat", "text_completion", "generate_content"]);
const AGENT_OPERATIONS = new Set(["invoke_agent", "create_agent"]);
const COMPACT_OPERATIONS = new Set(["compact", "compaction"]);

/** GenAI operations that record nothing an evidence question asks about, ignored on purpose. */
export const OTEL_IGNORED_OPERATIONS: Readonly<Record<string, string>> = {
  embeddings: "vectors computed from text, no action",
  retrieval: "a lookup of grounding documents, no action",
};

export const COMPACTION_SUMMARY = "gen_ai.compaction.summary";
export const COMPACTION_REPLACED = "gen_ai.compaction.replaced_span_ids";
export const COMPACTION_EVENT = "gen_ai.compaction";

/** A span to be, or a summary, at a point in time; sorted before seqs are given. */
type Item =
  | { time: bigint; order: number; source: OtlpSpan; span: Omit<DraftSpan, "occurredAt"> }
  | { time: bigint; order: number; source: OtlpSpan; summary: string; replacedSpanIds?: string[] };

class ConversationMapper {
  private readonly items: Item[] = [];
  private order = 0;
  /** How many times each message has been kept, to drop the history a later request repeats. */
  private readonly kept = new Map<string, number>();
  private readonly summaries = new Set<string>();
  private readonly toolSpanCallIds = new Set<string>();
  private readonly messageCallNames = new Map<string, string>();

  constructor(
    private readonly collector: ImportCollector,
    private readonly spans: OtlpSpan[],
  ) {
    for (const s of spans) {
      const id = str(s.attrs.get("gen_ai.tool.call.id"));
      if (operation(s) === "execute_tool" && id) this.toolSpanCallIds.add(id);
    }
  }

  map(externalId: string): void {
    const useAgentMessages = !this.spans.some((s) => CHAT_OPERATIONS.has(operation(s) ?? "") && hasMessages(s));
    for (const s of this.spans) this.span(s, useAgentMessages);
    this.emit(externalId);
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
    if (op !== undefined && op in OTEL_IGNORED_OPERATIONS) return;
    if (AGENT_OPERATIONS.has(op ?? "")) {
      if (useAgentMessages) this.messages(s);
      return;
    }
    if (CHAT_OPERATIONS.has(op ?? "") || hasMessages(s)) return this.messages(s);
    // Spans of other instrumentation (HTTP, databases) share GenAI traces; only unknown GenAI
    // operations are worth a report.
    if (op !== undefined) this.collector.issue(s.position, `gen_ai operation "${op}" with no messages maps to nothing; skipped`);
  }

  private tool(s: OtlpSpan): void {
    const toolName = str(s.attrs.get("gen_ai.tool.name")) ?? (s.name.replace(/^execute_tool\s*/, "") || "tool");
    const callId = str(s.attrs.get("gen_ai.tool.call.id"));
    const args = s.attrs.get("gen_ai.tool.call.arguments");
    const sourceId = callId ?? s.spanId;
    this.push(s, s.start, {
      span: { kind: "TOOL_CALL", toolName, ...inputOf(args), body: utf8(textOf(args)), sourceLine: s.position, sourceId },
    });
    const result = s.attrs.get("gen_ai.tool.call.result");
    if (result === undefined && !s.failed) return;
    const stated = s.attrs.get("process.exit.code");
    const exitCode = typeof stated === "number" && Number.isInteger(stated) ? stated : s.failed ? 1 : 0;
    const body = result !== undefined ? textOf(result) : (s.statusMessage ?? str(s.attrs.get("error.type")) ?? "");
    this.push(s, s.end, {
      span: { kind: "TOOL_RESULT", toolName, exitCode, body: utf8(body), sourceLine: s.position, sourceId },
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
      this.collector.issue(s.position, `${key} is ${listed.error}; those messages skipped`);
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
        case "tool_call":
          if (part.id && this.toolSpanCallIds.has(part.id)) continue;
          if (part.id) this.messageCallNames.set(part.id, part.name);
          this.push(s, time, {
            span: {
              ...base,
              kind: "TOOL_CALL",
              toolName: part.name,
              ...inputOf(part.arguments),
              body: utf8(textOf(part.arguments)),
              ...(part.id ? { sourceId: part.id } : {}),
            },
          });
          break;
        case "tool_call_response": {
          if (part.id && this.toolSpanCallIds.has(part.id)) continue;
          const toolName = part.id ? this.messageCallNames.get(part.id) : undefined;
          this.push(s, time, {
            span: {
              ...base,
              kind: "TOOL_RESULT",
              body: utf8(textOf(part.response)),
              ...(toolName ? { toolName } : {}),
              ...(part.id ? { sourceId: part.id } : {}),
            },
          });
          break;
        }
        case "other":
          if (!IGNORED_PART_TYPES.has(part.name))
            this.collector.issue(s.position, `message part of unknown type "${part.name}"; skipped`);
      }
    }
  }

  /** Sorts by time and hands the items to the session in that order. */
  private emit(externalId: string): void {
    const draft = this.collector.session(externalId);
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
      key.startsWith("gen_ai.prompt.") ||
      key.startsWith("gen_ai.completion.")
    )
      return true;
  }
  return s.events.some((e) => e.name.startsWith("gen_ai.") && e.name !== COMPACTION_EVENT);
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
function conversations(spans: OtlpSpan[]): Map<string, OtlpSpan[]> {
  const byId = new Map(spans.map((s) => [`${s.traceId}/${s.spanId}`, s]));
  const own = (s: OtlpSpan) => str(s.attrs.get("gen_ai.conversation.id"));
  const resolved = new Map<OtlpSpan, string | undefined>();
  const lookup = (s: OtlpSpan, depth: number): string | undefined => {
    if (resolved.has(s)) return resolved.get(s);
    const parent = s.parentSpanId ? byId.get(`${s.traceId}/${s.parentSpanId}`) : undefined;
    const id = own(s) ?? (parent && depth < 256 ? lookup(parent, depth + 1) : undefined);
    resolved.set(s, id);
    return id;
  };
  const perTrace = new Map<string, Set<string>>();
  for (const s of spans) {
    const id = lookup(s, 0);
    if (id) perTrace.set(s.traceId, (perTrace.get(s.traceId) ?? new Set()).add(id));
  }
  const groups = new Map<string, OtlpSpan[]>();
  for (const s of spans) {
    const traceIds = perTrace.get(s.traceId);
    const only = traceIds?.size === 1 ? [...traceIds][0] : undefined;
    const key = lookup(s, 0) ?? only ?? s.traceId;
    const group = groups.get(key);
    if (group) group.push(s);
    else groups.set(key, [s]);
  }
  return groups;
}

export function parseOtelGenAi(bytes: Uint8Array): ImportResult {
  const collector = new ImportCollector("otel-genai");
  const spans = readOtlp(bytes, collector);
  for (const [externalId, group] of conversations(spans)) {
    const sorted = [...group].sort((a, b) => {
      const at = a.start ?? a.end ?? 0n;
      const bt = b.start ?? b.end ?? 0n;
      return at < bt ? -1 : at > bt ? 1 : a.position - b.position;
    });
    new ConversationMapper(collector, sorted).map(externalId);
  }
  return collector.result();
}

export const otelGenAiImporter: TranscriptImporter = {
  format: "otel-genai",
  detect(head) {
    if (/^\s*\{\s*"resourceSpans"\s*:/.test(head.replace(/^\uFEFF/, ""))) return 0.95;
    return /"resourceSpans"\s*:/.test(head) && /"gen_ai\./.test(head) ? 0.9 : 0;
  },
  parse: parseOtelGenAi,
};

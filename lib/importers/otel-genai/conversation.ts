/**
 * One conversation of an OTLP export (see ./index): its spans, in time order, as messages,
 * tool calls with their results and outcomes, and compaction summaries.
 */
import type { DraftSpan, ImportCollector, SessionDraft } from "../shared/builder";
import {
  eventMessages,
  IGNORED_PART_TYPES,
  indexedMessages,
  messageKey,
  messagesOf,
  systemInstructionsOf,
  type Message,
} from "./messages";
import {
  ADK_LLM_CONTENT,
  AGENT_OPERATIONS,
  CHAT_OPERATIONS,
  COMPACT_OPERATIONS,
  COMPACTION_EVENT,
  COMPACTION_REPLACED,
  COMPACTION_SUMMARY,
  CONVERSATION_COMPACTED,
  exceptionOf,
  hasMessages,
  IGNORED_OPERATIONS,
  inputOf,
  isGenAi,
  isModelCall,
  isWorkflowStep,
  operation,
  READ_ONLY_METHODS,
  requestOf,
  requestOutcome,
  responseFailed,
  textOf,
  toolOutcome,
  type Trees,
} from "./spans";
import { fsMutationOf } from "./fs";
import { toolSpanCall } from "./tool-span";
import type { OtlpSpan } from "./otlp-records";
import { looksInjected, parseUnixNanos, str, titleFrom, utf8 } from "../shared/text";
import { type Item, resolveCompactedFlags } from "./compacted-flags";

export class ConversationMapper {
  private readonly items: Item[] = [];
  private order = 0;
  /** How many times each message has been kept, to drop the history a later request repeats. */
  private readonly kept = new Map<string, number>();
  private readonly summaries = new Set<string>();
  /** Compaction parts already mapped, by id or content: a later request repeats them as history. */
  private readonly compactionParts = new Set<string>();
  /** Each model call with messages: when it started and whether its input was a compacted view. */
  private readonly requests: Array<{ start: bigint; compacted: boolean }> = [];
  private readonly toolSpanCallIds = new Set<string>();
  private readonly messageCalls = new Map<string, Omit<DraftSpan, "occurredAt">>();
  /** Call ids whose response (in a message) has been kept. */
  private readonly responses = new Set<string>();
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
      const id = operation(s) === "execute_tool" ? toolSpanCall(s).callId : undefined;
      if (id) this.toolSpanCallIds.add(id);
    }
  }

  map(): void {
    const useAgentMessages = !this.spans.some((s) => CHAT_OPERATIONS.has(operation(s) ?? "") && hasMessages(s));
    for (const s of this.spans) this.span(s, useAgentMessages);
    this.emit();
  }

  /**
   * A workflow step's recorded input and output are its framework's state, the conversation's
   * messages and tool calls, which its model-call and tool spans record: merged when the
   * conversation has model-call messages; otherwise what it carried is missing.
   */
  private step(s: OtlpSpan, useAgentMessages: boolean): void {
    if (!useAgentMessages) return this.collector.use(s.position);
    this.skip(
      s,
      `workflow step "${s.name}" records its input and output in its framework's own serialisation, which is not read, and its conversation has no model-call messages; what it carried is missing`,
    );
  }

  private skip(s: OtlpSpan, reason: string): void {
    this.collector.skip(s.position, reason, this.draft);
  }

  private push(
    source: OtlpSpan,
    time: bigint | undefined,
    item: { span: Omit<DraftSpan, "occurredAt"> } | { summary: string; replacedSpanIds?: string[] } | { compactedBefore: true },
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
    if (isWorkflowStep(s)) return this.step(s, useAgentMessages);
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
    const fs = fsMutationOf(s);
    if (fs) return this.fsCall(s, fs.toolName, fs.path);
    const request = requestOf(s);
    if (!request) return this.ignore(s.position, "span:internal");
    if (this.trees.underModelCall(s)) return this.ignore(s.position, "request:model-transport");
    const parent = this.trees.parent(s);
    if (request.toolName === "request" && parent && !isGenAi(parent) && requestOf(parent))
      return this.ignore(s.position, "request:inside-request");
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

  /** A file-system change instrumentation-fs recorded (./fs); without its path, which file is unknown. */
  private fsCall(s: OtlpSpan, toolName: string, path: string | undefined): void {
    const input = path !== undefined ? { path } : {};
    this.push(s, s.start, {
      span: {
        kind: "TOOL_CALL",
        toolName,
        toolInput: input,
        outcome: requestOutcome(s),
        body: utf8(JSON.stringify(input)),
        sourceLine: s.position,
        sourceId: s.spanId,
      },
    });
    if (path === undefined)
      this.skip(
        s,
        `${toolName} span without the path it changed (instrumentation-fs records none by default); which file is unknown`,
      );
  }

  private tool(s: OtlpSpan): void {
    const { toolName, callId, args, result, resultFailed } = toolSpanCall(s);
    const stated = s.attrs.get("process.exit.code");
    const exitCode = typeof stated === "number" && Number.isInteger(stated) ? stated : undefined;
    const failed = s.failed || resultFailed;
    const outcome = toolOutcome({ failed, exitCode, ended: s.end !== undefined, result, status: s.status });
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
    if (result === undefined && !failed && exitCode === undefined) return;
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
    // The conventions set the flag only to true; its input is a compacted view of the conversation.
    const compacted = s.attrs.get(CONVERSATION_COMPACTED) === true;
    this.requests.push({ start: s.start ?? s.end ?? 0n, compacted });
    if (compacted) this.push(s, s.start, { compactedBefore: true });
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
          // A call id seen before is the same call in a later request's history, whose arguments
          // may be spelled differently (re-serialised by the framework).
          if (part.id && (this.toolSpanCallIds.has(part.id) || this.messageCalls.has(part.id))) continue;
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
          if (part.id && (this.toolSpanCallIds.has(part.id) || this.responses.has(part.id))) continue;
          if (part.id) this.responses.add(part.id);
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
        case "compaction": {
          const key = part.id ?? part.text;
          if (key !== undefined && this.compactionParts.has(key)) continue;
          if (key !== undefined) this.compactionParts.add(key);
          if (part.text !== undefined) this.summaries.add(part.text);
          else
            this.collector.issue(
              s.position,
              "compaction message part without content (the compacted state is opaque); its SUMMARY span is empty",
            );
          this.push(s, time, { summary: part.text ?? "" });
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
    for (const item of resolveCompactedFlags(this.items, this.requests, (position, message) =>
      this.collector.issue(position, message),
    )) {
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

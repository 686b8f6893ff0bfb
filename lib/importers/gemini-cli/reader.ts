/**
 * Gemini CLI session reading shared by both file shapes (see ./index): message versions by
 * id, the message list as `$set`, `$rewindTo` and compressions leave it, and the spans each final
 * message gives (text, thoughts, tool calls paired with their own function response, notices).
 */
import { Clock, type DraftSpan, ImportCollector, type SessionDraft } from "../shared/builder";
import {
  callOutcome,
  contentParts,
  displayText,
  type FunctionResponsePart,
  responseFor,
  responseText,
  workspaceOf,
} from "./parts";
import { shapeProblem } from "./shape";
import { rawValue } from "../shared/json-scan";
import type { ImportResult } from "../shared/types";
import { isRecord, looksInjected, str, titleFrom, utf8 } from "../shared/text";

/**
 * Records ignored on purpose. `empty-message`: a message record that carries no text, thought, tool
 * call or tool response (a turn recorded only for its token counts, an empty notice such as the one
 * a compression leaves in the UI history).
 */
export const GEMINI_CLI_IGNORED_RECORDS: Readonly<Record<string, string>> = {
  "empty-message":
    "a message record with no text, thought, tool call or tool response (as packages/core/src/services/chatRecordingService.ts records token-only turns)",
};

const MESSAGE_TYPES = new Set(["user", "gemini", "info", "warning", "error"]);
const TERMINAL = new Set(["success", "error", "cancelled"]);
const SHELL_TOOLS = new Set(["run_shell_command", "shell"]);
const SNAPSHOT = "<state_snapshot>";

/** One recorded version of a message: where it is and how to slice values out of it. */
export interface Version {
  line: number;
  bytes: Uint8Array;
  prefix: Array<string | number>;
  value: Record<string, unknown>;
}

interface CallSource {
  version: Version;
  /** The toolCalls record, or undefined for a bare functionCall part. */
  record?: Record<string, unknown>;
  path: Array<string | number>;
  id?: string;
  name: string;
  args: Record<string, unknown>;
}

export class GeminiReader {
  readonly collector = new ImportCollector("gemini-cli");
  private readonly clock = new Clock(this.collector);
  /** Message versions by message id, in order of first appearance. */
  private readonly messages = new Map<string, Version[]>();
  /** Summary message id -> ids of the messages its compression dropped. */
  readonly summaries = new Map<string, string[]>();
  private live: string[] = [];
  private readonly spansOf = new Map<string, DraftSpan[]>();
  private readonly callIds = new Set<string>();
  /** Lines with a part that could not be read: never ignored as empty. */
  private readonly damaged = new Set<number>();
  private readonly responses = new Map<string, { line: number; part: FunctionResponsePart; at: unknown }>();
  meta: Record<string, unknown> = {};
  draft!: SessionDraft;
  /** Set on every span of a subagent's session file. */
  private agentId: string | undefined;

  version(v: Version): void {
    const id = str(v.value.id) ?? `#${v.line}:${v.prefix.join(".")}`;
    const list = this.messages.get(id);
    if (list) list.push(v);
    else this.messages.set(id, [v]);
  }

  /** A message line appended (not inside a `$set`). */
  appended(v: Version): void {
    this.version(v);
    const id = str(v.value.id);
    if (id !== undefined && !this.live.includes(id)) this.live.push(id);
  }

  rewind(id: string): void {
    const at = this.live.indexOf(id);
    this.live = at >= 0 ? this.live.slice(0, at) : [];
  }

  /** A `$set` replacing the message list: a compression when it brings a state snapshot. */
  replaceList(list: Version[]): void {
    const ids = list.map((v) => str(v.value.id)).filter((id): id is string => id !== undefined);
    const dropped = this.live.filter((id) => !ids.includes(id));
    const snapshot = list.find((v) => v.value.type === "user" && textOf(v.value.content).includes(SNAPSHOT));
    const snapshotId = snapshot ? str(snapshot.value.id) : undefined;
    if (snapshotId !== undefined && dropped.length > 0 && !this.summaries.has(snapshotId)) {
      this.summaries.set(snapshotId, dropped);
    }
    this.live = ids;
  }

  emit(): ImportResult {
    this.index();
    const draft = this.draft;
    // A subagent's own session (`kind` "subagent", written under its parent session's folder): its
    // session id is the agent id the parent's delegating tool call records.
    if (this.meta.kind === "subagent") this.agentId = draft.externalId;
    if (typeof this.meta.summary === "string" && this.meta.summary.trim() !== "") draft.title = titleFrom(this.meta.summary);
    const dirs = Array.isArray(this.meta.directories) ? this.meta.directories.filter((d) => typeof d === "string") : [];
    if (dirs.length > 0) draft.cwd = dirs[0] as string;
    for (const [id, versions] of this.messages) {
      const carried = this.message(id, versions);
      if (carried === "skipped") continue;
      for (const v of versions) {
        if (carried) this.collector.use(v.line);
        else if (!this.damaged.has(v.line)) this.collector.ignore(v.line, "empty-message");
      }
    }
    return this.collector.result();
  }

  /** Every call id and the first response recorded for each id, before spans are made. */
  private index(): void {
    for (const versions of this.messages.values()) {
      for (const v of versions) {
        for (const tc of toolCallsOf(v.value)) if (str(tc.id)) this.callIds.add(str(tc.id)!);
        const parts = contentParts(v.value.content);
        for (const c of parts.calls) if (c.id) this.callIds.add(c.id);
        if (v.value.type !== "user") continue;
        for (const r of parts.responses) {
          if (r.id !== undefined && !this.responses.has(r.id))
            this.responses.set(r.id, { line: v.line, part: r, at: v.value.timestamp });
        }
      }
    }
  }

  private add(id: string, span: DraftSpan): DraftSpan {
    if (this.agentId !== undefined) span.agentId = this.agentId;
    this.draft.add(span);
    const list = this.spansOf.get(id);
    if (list) list.push(span);
    else this.spansOf.set(id, [span]);
    return span;
  }

  /** Makes the spans of one message; false when it carried nothing at all. */
  private message(id: string, versions: Version[]): boolean | "skipped" {
    const first = versions[0]!;
    const type = str(first.value.type);
    if (type === undefined || !MESSAGE_TYPES.has(type)) {
      this.clock.see(first.value.timestamp);
      for (const v of versions) {
        this.collector.skip(v.line, `unknown message type ${JSON.stringify(first.value.type ?? null)}; skipped`, this.draft);
      }
      return "skipped";
    }
    for (const v of versions) {
      const problem = shapeProblem(v.value);
      if (!problem) continue;
      this.damaged.add(v.line);
      this.collector.skip(v.line, `${problem}; what it held is not imported`, this.draft);
    }
    if (type === "gemini") return this.gemini(id, versions);
    const parts = contentParts(first.value.content);
    const text = [...parts.text, ...parts.other].join("\n");
    const base = { sourceLine: first.line, sourceId: id };
    let carried = text.trim() !== "";
    if (type !== "user") {
      if (carried)
        this.add(id, {
          ...base,
          kind: "MESSAGE",
          role: "system",
          occurredAt: this.clock.at(first.line, first.value.timestamp),
          body: utf8(text),
        });
      else this.clock.see(first.value.timestamp);
      return carried;
    }
    const occurredAt = this.clock.at(first.line, first.value.timestamp);
    if (carried) {
      const summary = this.summaries.get(id) ?? (text.trimStart().startsWith(SNAPSHOT) ? [] : undefined);
      if (summary !== undefined) {
        const replaced = summary.flatMap((r) => this.spansOf.get(r) ?? []);
        this.draft.addSummary(
          { ...base, occurredAt, body: utf8(text), ...(this.agentId !== undefined ? { agentId: this.agentId } : {}) },
          replaced,
        );
      } else {
        this.add(id, { ...base, kind: "MESSAGE", role: "user", occurredAt, body: utf8(text) });
        if (this.draft.title === undefined && !looksInjected(text)) this.draft.title = titleFrom(text);
      }
      this.draft.cwd ??= workspaceOf(text);
    }
    for (const r of parts.responses) {
      carried = true;
      // A response whose call is in the file is that call's result (see gemini()).
      if (r.id !== undefined && this.callIds.has(r.id)) continue;
      const body = responseText(r);
      this.add(id, {
        ...base,
        kind: "TOOL_RESULT",
        occurredAt,
        body: utf8(body),
        ...(r.name !== undefined ? { toolName: r.name } : {}),
        ...(r.id !== undefined ? { sourceId: r.id } : {}),
      });
    }
    return carried;
  }

  private gemini(id: string, versions: Version[]): boolean {
    const first = versions[0]!;
    let carried = false;
    const thoughtVersion = versions.find((v) => Array.isArray(v.value.thoughts) && v.value.thoughts.length > 0);
    for (const t of (thoughtVersion?.value.thoughts as unknown[] | undefined) ?? []) {
      if (!isRecord(t)) continue;
      const text = [str(t.subject), str(t.description)].filter((s) => s !== undefined && s !== "").join("\n");
      if (text === "") continue;
      carried = true;
      this.add(id, {
        kind: "MESSAGE",
        role: "reasoning",
        occurredAt: this.clock.at(thoughtVersion!.line, t.timestamp ?? thoughtVersion!.value.timestamp),
        body: utf8(text),
        sourceLine: thoughtVersion!.line,
        sourceId: id,
      });
    }
    const textVersion = versions.find((v) => contentParts(v.value.content).text.join("").trim() !== "") ?? first;
    const parts = contentParts(textVersion.value.content);
    const occurredAt = this.clock.at(textVersion.line, textVersion.value.timestamp);
    if (!thoughtVersion) {
      for (const thought of parts.thoughts.filter((t) => t.trim() !== "")) {
        carried = true;
        this.add(id, {
          kind: "MESSAGE",
          role: "reasoning",
          occurredAt,
          body: utf8(thought),
          sourceLine: textVersion.line,
          sourceId: id,
        });
      }
    }
    const text = parts.text.join("") + (parts.other.length > 0 ? `\n${parts.other.join("\n")}` : "");
    if (text.trim() !== "") {
      carried = true;
      this.add(id, {
        kind: "MESSAGE",
        role: "assistant",
        occurredAt,
        body: utf8(text),
        sourceLine: textVersion.line,
        sourceId: id,
      });
    }
    for (const call of callsOf(versions)) {
      carried = true;
      this.call(id, call, occurredAt);
    }
    return carried;
  }

  private call(messageId: string, call: CallSource, occurredAt: Date | undefined): void {
    const raw = rawValue(call.version.bytes, [...call.version.prefix, ...call.path]);
    const span = this.add(messageId, {
      kind: "TOOL_CALL",
      toolName: call.name,
      toolInput: call.args,
      occurredAt,
      body: raw ? raw.slice() : utf8(JSON.stringify(call.args)),
      sourceLine: call.version.line,
      ...(call.id !== undefined ? { sourceId: call.id } : {}),
      ...(this.draft.cwd !== undefined ? { cwd: this.draft.cwd } : {}),
    });
    const record = call.record;
    let response = record ? responseFor(record.result, call.id) : undefined;
    let resultLine = call.version.line;
    let resultAt: unknown = record?.timestamp ?? call.version.value.timestamp;
    if (!response && call.id !== undefined) {
      const later = this.responses.get(call.id);
      if (later) {
        response = later.part;
        resultLine = later.line;
        resultAt = later.at;
      }
    }
    const display = record ? displayText(record.resultDisplay) : undefined;
    const text = response ? responseText(response) : (display ?? "");
    const status = record ? record.status : response ? impliedStatus(response, text) : undefined;
    const { outcome, exitCode } = callOutcome(status, response, text, SHELL_TOOLS.has(call.name));
    span.outcome = outcome;
    if (exitCode !== undefined) span.exitCode = exitCode;
    if (!response && display === undefined) return;
    this.add(messageId, {
      kind: "TOOL_RESULT",
      toolName: call.name,
      occurredAt: this.clock.at(resultLine, resultAt),
      body: utf8(text),
      sourceLine: resultLine,
      ...(call.id !== undefined ? { sourceId: call.id } : {}),
      ...(exitCode !== undefined ? { exitCode } : {}),
      ...(span.cwd !== undefined ? { cwd: span.cwd } : {}),
    });
  }
}

/** Status of a call known only from its function response (no toolCalls record). */
function impliedStatus(response: FunctionResponsePart, text: string): string {
  if (/\[Operation Cancelled\]/.test(text)) return "cancelled";
  const r = response.response;
  return isRecord(r) && r.error !== undefined && r.output === undefined ? "error" : "success";
}

function toolCallsOf(value: Record<string, unknown>): Record<string, unknown>[] {
  return Array.isArray(value.toolCalls) ? value.toolCalls.filter(isRecord) : [];
}

/**
 * A message's calls: its `toolCalls` across versions (for each id the first version that reached a
 * terminal status, else the latest), then `functionCall` parts no toolCalls record stands for.
 */
function callsOf(versions: Version[]): CallSource[] {
  const calls = new Map<string, CallSource>();
  for (const v of versions) {
    const list = Array.isArray(v.value.toolCalls) ? (v.value.toolCalls as unknown[]) : [];
    list.forEach((tc, k) => {
      if (!isRecord(tc)) return;
      const name = str(tc.name) ?? "unknown";
      const id = str(tc.id);
      const key = id ?? `${name}#${k}`;
      const known = calls.get(key);
      if (known && TERMINAL.has(String(known.record?.status))) return;
      calls.set(key, {
        version: v,
        record: tc,
        path: ["toolCalls", k, "args"],
        name,
        args: isRecord(tc.args) ? tc.args : {},
        ...(id !== undefined ? { id } : {}),
      });
    });
  }
  for (const v of versions) {
    for (const part of contentParts(v.value.content).calls) {
      const key = part.id ?? `${part.name}#part${part.index}`;
      if (calls.has(key)) continue;
      calls.set(key, {
        version: v,
        path: ["content", part.index, "functionCall", "args"],
        name: part.name,
        args: part.args,
        ...(part.id !== undefined ? { id: part.id } : {}),
      });
    }
  }
  return [...calls.values()];
}

function textOf(content: unknown): string {
  return contentParts(content).text.join("\n");
}

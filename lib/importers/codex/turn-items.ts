/**
 * Turns of a Codex rollout: the lifecycle events that bound them, and the completed turn items
 * (`item_completed`) a paginated rollout keeps instead of the legacy events: which are messages and
 * their text, and which end a call, as the end event's payload.
 */
import { contentTexts } from "./outcomes";
import type { JsonLine } from "../shared/jsonl";
import { isRecord, str } from "../shared/text";

/** Lifecycle events that end a turn, and that start one (ending the last, if its end is missing). */
export const TURN_ENDS = new Set(["task_complete", "turn_complete", "turn_aborted"]);
export const TURN_STARTS = new Set(["task_started", "turn_started"]);

/** The event type of a turn's lifecycle line (`event_msg` payloads), if the line is one. */
export function turnEvent(line: JsonLine): string | undefined {
  const r = line.value;
  return r.type === "event_msg" && isRecord(r.payload) && typeof r.payload.type === "string" ? r.payload.type : undefined;
}

/** Turn items that are messages, by the role their text is recorded under. */
export const TURN_ITEM_ROLES: Readonly<Record<string, string>> = {
  UserMessage: "user",
  HookPrompt: "user",
  AgentMessage: "assistant",
  Plan: "assistant",
  Reasoning: "reasoning",
};

/** Turn items that end a call, by the legacy end event they stand for. */
export const TURN_ITEM_ENDS: Readonly<Record<string, string>> = {
  CommandExecution: "exec_command_end",
  FileChange: "patch_apply_end",
  McpToolCall: "mcp_tool_call_end",
  DynamicToolCall: "dynamic_tool_call",
  CollabAgentToolCall: "dynamic_tool_call",
};

const listed = (v: unknown) => (Array.isArray(v) ? v : []);

/** A message item's texts: its content, text, summary, raw content and fragments. */
export function turnItemTexts(item: Record<string, unknown>): string[] {
  return [
    ...(contentTexts(item.content)?.texts ?? []),
    ...[item.text, ...listed(item.summary_text), ...listed(item.raw_content)].filter((t): t is string => typeof t === "string"),
    ...listed(item.fragments).flatMap((f) => (isRecord(f) && typeof f.text === "string" ? [f.text] : [])),
  ];
}

/** A call-ending item as its legacy end event's payload (an MCP call's error or result as `{Err}` / `{Ok}`). */
export function turnItemEnd(item: Record<string, unknown>, id: string): Record<string, unknown> {
  const p: Record<string, unknown> = { ...item, call_id: id };
  if (item.type === "McpToolCall") {
    const error = isRecord(item.error) ? str(item.error.message) : undefined;
    p.result =
      error !== undefined || item.status === "failed"
        ? { Err: error ?? "" }
        : isRecord(item.result)
          ? { Ok: item.result }
          : undefined;
  }
  return p;
}

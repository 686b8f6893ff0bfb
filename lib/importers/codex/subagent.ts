/**
 * A thread-spawned subagent's identity, from its rollout's `session_meta`. Codex writes the session's
 * origin in `payload.source`, its `SessionSource` serialized by serde (codex-rs/protocol/src/protocol.rs:
 * `rename_all = "lowercase"`, `SubAgentSource` `rename_all = "snake_case"`, externally tagged):
 *
 * - a plain origin is a string: "cli", "vscode", "exec", "mcp", "unknown" (and what serde's
 *   `other` catches); `{"custom": "..."}` and `{"internal": "memory_consolidation"}` in newer versions;
 * - a subagent is `{"subagent": ...}`: "review", "compact" or "memory_consolidation" for the
 *   runtime's own helpers, `{"other": "..."}`, or a subagent the model spawned on a thread,
 *   `{"subagent": {"thread_spawn": {"parent_thread_id", "depth", "agent_path"?, "agent_nickname"?,
 *   "agent_role"?}}}` (`agent_role` is also read as `agent_type`, its older name).
 *
 * Only a thread-spawned subagent is given an identity: its spans are its agent's, as the SubagentStop
 * hook attributes them (lib/cli/hook.ts), with the thread id as agent id (the hook's `agent_id` is
 * the same id) and its role as agent type. Newer versions also copy the role to session_meta's own
 * `agent_role` (`agent_type`), read when the source names none. Every other source, and any shape
 * this reader does not know, leaves the spans to the session's main agent, as before.
 */
import { isRecord, str } from "../shared/text";

export interface CodexSubagent {
  /** The subagent's thread id: its session_meta `id`. */
  agentId: string;
  /** Its role (`agent_role`), when the rollout names one. */
  agentType?: string;
  /** The thread that spawned it, and how deep below the root thread it runs. */
  parentThreadId?: string;
  depth?: number;
}

const text = (value: unknown): string | undefined => {
  const s = str(value);
  return s !== undefined && s !== "" ? s : undefined;
};

/** The `thread_spawn` object of a session source, if the source is a thread-spawned subagent's. */
function threadSpawn(source: unknown): Record<string, unknown> | undefined {
  if (!isRecord(source)) return undefined;
  const subagent = source.subagent;
  if (!isRecord(subagent)) return undefined;
  return isRecord(subagent.thread_spawn) ? subagent.thread_spawn : undefined;
}

/** The subagent a session_meta payload names as its own, or undefined for any other session. */
export function codexSubagent(payload: Record<string, unknown>): CodexSubagent | undefined {
  const id = text(payload.id);
  const spawn = threadSpawn(payload.source);
  if (id === undefined || spawn === undefined) return undefined;
  const agentType = text(spawn.agent_role) ?? text(spawn.agent_type) ?? text(payload.agent_role) ?? text(payload.agent_type);
  const parentThreadId = text(spawn.parent_thread_id);
  const depth = typeof spawn.depth === "number" && Number.isInteger(spawn.depth) ? spawn.depth : undefined;
  return {
    agentId: id,
    ...(agentType !== undefined ? { agentType } : {}),
    ...(parentThreadId !== undefined ? { parentThreadId } : {}),
    ...(depth !== undefined ? { depth } : {}),
  };
}

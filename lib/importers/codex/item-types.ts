/**
 * The Codex rollout record types the reader knows (codex-rs protocol `ResponseItem` and `EventMsg`):
 * the response items it reads, the calls and outputs among them, and the events that end or propose
 * a call.
 */
import { CODEX_IGNORED_ITEM_TYPES } from "./lists";

export const CALL_ITEMS = new Set([
  "function_call",
  "custom_tool_call",
  "local_shell_call",
  "web_search_call",
  "image_generation_call",
  "tool_search_call",
]);
export const OUTPUT_ITEMS = new Set(["function_call_output", "custom_tool_call_output", "tool_search_output"]);
export const RESPONSE_ITEM_TYPES = new Set([
  "message",
  "reasoning",
  "agent_message",
  ...CALL_ITEMS,
  ...OUTPUT_ITEMS,
  ...Object.keys(CODEX_IGNORED_ITEM_TYPES),
]);

export const END_EVENTS = new Set(["exec_command_end", "patch_apply_end", "mcp_tool_call_end"]);
export const PROPOSALS = new Set([
  "exec_approval_request",
  "exec_command_begin",
  "apply_patch_approval_request",
  "patch_apply_begin",
  "mcp_tool_call_begin",
]);

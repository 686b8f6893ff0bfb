/**
 * Built-in tools of current runtime versions, beside the long-standing ones in tools.ts, as each
 * runtime names them: Claude Code's tools reference (code.claude.com/docs/en/tools-reference), Codex's
 * collaboration tools (codex-rs, CollabAgentTool) and Gemini CLI's packages/core/src/tools/tool-names.ts. A tool left out here is unknown, so it blocks
 * every NO to a question about side effects: each one listed says what it does.
 */
import type { ToolProfile } from "./tool-profile";

const PATHS = ["file_path", "path", "absolute_path", "dir_path"];

export const RUNTIME_TOOLS: ReadonlyArray<readonly [names: string, profile: ToolProfile]> = [
  // Claude Code 2.1: the session's task list, scheduled prompts, skills and teammates are the
  // agent's own bookkeeping (their work shows as the tool calls it leads to).
  [
    "TaskCreate TaskUpdate TaskList TaskGet CronCreate CronDelete CronList Skill SlashCommand SendMessage ExitWorktree",
    { kind: "internal", family: "claude-code" },
  ],
  // Code intelligence (definitions, references, diagnostics) and MCP resources: reads.
  ["LSP ListMcpResourcesTool ReadMcpResourceTool ToolSearch", { kind: "read", family: "claude-code" }],
  // Stops a background task or shell: a signal to a running process.
  ["TaskStop", { kind: "process", family: "claude-code" }],
  // Publishes a file as a page on claude.ai.
  ["Artifact", { kind: "remote-write", family: "claude-code" }],

  // Codex's sub-agents (CollabAgentTool): spawning one starts work whose acts are not known here;
  // sending it input, waiting for, resuming or closing it is the parent's own bookkeeping.
  ["spawn_agent", { kind: "spawn", family: "codex" }],
  ["send_input wait_agent resume_agent close_agent", { kind: "internal", family: "codex" }],

  // Gemini CLI: its edit tool, content search, sub-agents, skills and docs. save_memory writes
  // the user's GEMINI.md outside the project and stays unknown.
  [
    "replace",
    { kind: "write", rule: "tool.edit", family: "gemini-cli", pathArgs: PATHS, contentArgs: ["old_string", "new_string"] },
  ],
  ["search_file_content get_internal_docs", { kind: "read", family: "gemini-cli", pathArgs: PATHS }],
  ["delegate_to_agent", { kind: "spawn", family: "gemini-cli" }],
  ["activate_skill ask_user enter_plan_mode", { kind: "internal", family: "gemini-cli" }],
];

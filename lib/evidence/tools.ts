/**
 * What agent tools do, across runtimes: Claude Code, Codex CLI, OpenHands, SWE-agent, the
 * generic names of MCP servers and function-calling agents. A tool that is not known to be
 * read-only is side-effecting (UNKNOWN_TOOL), the same default as MCP's destructiveHint.
 *
 * MCP annotations are hints from the server, not guarantees, so they only ever make the
 * answer more cautious or confirm a read: readOnlyHint: true makes an unknown tool read-only,
 * but never turns a known writer (write_file) into a reader; readOnlyHint: false or
 * destructiveHint: true make a name we believed read-only side-effecting.
 */
import { mcpToolParts, mcpVerb } from "./mcp-tools";
import { NODE_FS_MUTATIONS } from "./node-fs";
import { own } from "./own";
import { RUNTIME_TOOLS } from "./runtime-tools";
import type { ToolKind, ToolProfile } from "./tool-profile";
import type { SideEffectKind, SpanInput } from "./types";

export type { ToolKind, ToolProfile } from "./tool-profile";

export interface ToolKnowledge extends ToolProfile {
  /** The name as looked up (MCP prefixes stripped, case folded). */
  canonical: string;
  known: boolean;
  /** Set when MCP annotations changed the verdict the name alone gave. */
  annotated?: "read-only" | "destructive";
}

const PATHS = [
  "file_path",
  "path",
  "filePath",
  "filepath",
  "filename",
  "file_name",
  "file",
  "notebook_path",
  "target_file",
  "absolute_path",
  "target",
];
const DIRS = ["path", "dir", "dir_path", "directory", "cwd", "root", "paths"];
const CONTENT = [
  "content",
  "contents",
  "file_text",
  "new_str",
  "old_str",
  "new_string",
  "old_string",
  "new_source",
  "edits",
  "text",
  "data",
  "replacement",
  "insert_text",
  "diff",
  "code_edit",
  "new_content",
  "old_content",
];

/** Codex's sandbox escalation arguments (see ToolProfile.escalationArgs). */
const ESCALATION_ARGS = ["with_escalated_permissions", "sandbox_permissions"];

const P: Record<string, ToolProfile> = {};
function def(names: string, profile: ToolProfile): void {
  for (const n of names.split(" ")) P[n] = profile;
}

// Claude Code.
def("Read NotebookRead", { kind: "read", family: "claude-code", pathArgs: ["file_path", "notebook_path"] });
def("Write", { kind: "write", family: "claude-code", pathArgs: ["file_path"], contentArgs: ["content"] });
def("Edit MultiEdit", {
  kind: "write",
  rule: "tool.edit",
  family: "claude-code",
  pathArgs: ["file_path"],
  contentArgs: ["old_string", "new_string", "edits"],
});
def("NotebookEdit", {
  kind: "write",
  rule: "tool.edit",
  family: "claude-code",
  pathArgs: ["notebook_path"],
  contentArgs: ["new_source"],
});
def("Bash", { kind: "shell", family: "claude-code", commandArgs: ["command"] });
def("BashOutput TaskOutput", { kind: "read", family: "claude-code" });
def("KillShell KillBash", { kind: "process", family: "claude-code" });
def("Glob Grep LS", { kind: "read", family: "claude-code", pathArgs: ["path"] });
def("WebFetch WebSearch", { kind: "read", family: "claude-code", urlArgs: ["url"] });
// exit_plan_mode: the name older Claude Code versions wrote.
def("TodoWrite TodoRead ExitPlanMode EnterPlanMode AskUserQuestion exit_plan_mode", { kind: "internal", family: "claude-code" });
def("Task Agent", { kind: "spawn", family: "claude-code" });

// Codex CLI.
def("shell container.exec local_shell shell_command exec_command unified_exec", {
  kind: "shell",
  family: "codex",
  commandArgs: ["command", "cmd"],
  cwdArgs: ["workdir", "working_directory", "cwd"],
  escalationArgs: ESCALATION_ARGS,
});
// Empty `chars` polls the running session for output (what Codex writes while it waits).
def("write_stdin", { kind: "process", family: "codex", stdinArgs: ["chars"] });
def("apply_patch", { kind: "patch", family: "codex", patchArgs: ["input", "patch"] });
def("update_plan", { kind: "internal", family: "codex" });
def("list_dir grep_files view_image", { kind: "read", family: "codex", pathArgs: ["path", "dir_path"] });
// `/undo` restoring a ghost snapshot (lib/importers/codex/undo.ts): workspace rewritten, new files removed.
def("restore_ghost_snapshot", { kind: "write", family: "codex", pathArgs: ["workspace"], deleteArgs: ["new_files_under"] });

// Node's fs calls as @opentelemetry/instrumentation-fs records them (lib/importers/otel-genai/fs.ts).
for (const [kind, fns] of Object.entries(NODE_FS_MUTATIONS))
  for (const fn of fns) def(`fs.${fn} fs.${fn}Sync`, { kind: kind as ToolKind, family: "node-fs", pathArgs: ["path"] });

// OpenHands (function-calling tool names and event action names).
def("execute_bash run CmdRunAction bash", { kind: "shell", family: "openhands", commandArgs: ["command"], cwdArgs: ["cwd"] });
def("execute_ipython_cell run_ipython IPythonRunCellAction", { kind: "code", family: "openhands", contentArgs: ["code"] });
def("str_replace_editor edit FileEditAction str_replace_based_edit_tool", {
  kind: "editor",
  family: "openhands",
  pathArgs: ["path", "file_path"],
  contentArgs: ["file_text", "old_str", "new_str", "content", "insert_text"],
  editorCommandArg: "command",
  readOnlyCommands: ["view"],
});
def("write FileWriteAction", { kind: "write", family: "openhands", pathArgs: ["path"], contentArgs: ["content"] });
def("read FileReadAction", { kind: "read", family: "openhands", pathArgs: ["path"] });
def("browse BrowseURLAction web_read", { kind: "read", family: "openhands", urlArgs: ["url"] });
def("browse_interactive browser BrowseInteractiveAction", { kind: "unknown", family: "openhands" });
def(
  "think finish message recall reject AgentFinishAction MessageAction AgentThinkAction AgentRejectAction RecallAction condensation",
  {
    kind: "internal",
    family: "openhands",
  },
);
def("delegate AgentDelegateAction", { kind: "spawn", family: "openhands" });

// SWE-agent (as function-calling tools; as command lines see shell/commands/agent-cli.ts).
def("open goto scroll_up scroll_down search_file search_dir find_file filemap", {
  kind: "read",
  family: "swe-agent",
  pathArgs: ["path", "file", "file_name", "dir"],
});
def("create", { kind: "write", family: "swe-agent", pathArgs: ["filename", "path", "file"] });
def("insert append", { kind: "editor", family: "swe-agent", pathArgs: ["path"], contentArgs: ["text", "content"] });
def("submit", { kind: "submit", family: "swe-agent" });

// Gemini CLI (names not already generic below), its sub-agents and its MCP resource tools.
def("google_web_search grep_search list_mcp_resources read_mcp_resource list_background_processes read_background_output", {
  kind: "read",
  family: "gemini-cli",
  pathArgs: ["path", "dir_path"],
});
def("invoke_agent", { kind: "spawn", family: "gemini-cli" });
// A sub-agent's final report to its parent.
def("complete_task", { kind: "internal", family: "gemini-cli" });
// Browser tools (Chrome DevTools MCP, Gemini CLI's browser agent) that only load or look at a
// page: loading a URL is a GET. Clicking, filling forms, running scripts and screenshots (which
// can save to a file) stay unknown, so side-effecting.
def("navigate_page new_page list_pages select_page take_snapshot wait_for", {
  kind: "read",
  family: "browser",
  urlArgs: ["url"],
});

// Generic and MCP server names.
def(
  "write_file create_file save_file write_to_file overwrite_file put_file file_write fs_write append_file append_to_file create_directory make_directory mkdir",
  {
    kind: "write",
    family: "generic",
    pathArgs: PATHS,
    contentArgs: CONTENT,
  },
);
def(
  "edit_file replace_in_file str_replace search_replace modify_file update_file patch_file insert_content apply_diff multi_edit",
  {
    kind: "write",
    rule: "tool.edit",
    family: "generic",
    pathArgs: PATHS,
    contentArgs: CONTENT,
  },
);
def("delete_file remove_file unlink_file delete_path delete_directory remove_directory rmdir", {
  kind: "delete",
  family: "generic",
  pathArgs: PATHS,
});
// Aider's repo map, finding a file git tracks gone from the disk ("Repo-map can't include P / Has it
// been deleted from the file system but not from git?"): the deletion it observed, as a call.
def("deleted_from_file_system", { kind: "delete", family: "aider", pathArgs: ["path"] });
def("move_file rename_file move_path rename_path", {
  kind: "move",
  family: "generic",
  pathArgs: ["source", "destination", "src", "dst", "from", "to", "old_path", "new_path", "path", "new_name"],
});
def("copy_file copy_path", {
  kind: "write",
  family: "generic",
  pathArgs: ["destination", "dst", "to", "target", "new_path"],
  readArgs: ["source", "src", "from", "path"],
});
def(
  "read_file read_text_file read_media_file read_multiple_files cat_file view_file open_file get_file file_read fs_read view read_many_files",
  { kind: "read", family: "generic", pathArgs: [...PATHS, "paths"] },
);
def(
  "list_dir list_directory list_directory_with_sizes list_files ls directory_tree get_file_info file_info stat search_files find_files glob grep search ripgrep codebase_search semantic_search list_allowed_directories file_search",
  { kind: "read", family: "generic", pathArgs: DIRS },
);
def("http_request request http api_request make_request call_api http_post", {
  kind: "http",
  family: "generic",
  urlArgs: ["url", "uri", "endpoint"],
  methodArgs: ["method", "http_method", "verb"],
  bodyArgs: ["body", "data", "json", "payload", "form"],
});
def("fetch web_fetch fetch_url get_url http_get url_fetch", { kind: "read", family: "generic", urlArgs: ["url", "uri"] });
def("web_search search_web google_search bing_search brave_search tavily_search", { kind: "read", family: "generic" });
def(
  "run_command execute_command run_shell_command shell_exec terminal run_terminal_cmd run_terminal_command exec execute bash_exec run_in_terminal sh run_bash",
  {
    kind: "shell",
    family: "generic",
    commandArgs: ["command", "cmd", "script", "commandLine", "command_line"],
    cwdArgs: ["cwd", "workdir", "working_directory", "dir", "directory"],
  },
);
def("run_python python execute_python run_code code_interpreter jupyter execute_code python_repl eval_python", {
  kind: "code",
  family: "generic",
  contentArgs: ["code", "source", "script"],
});
def("sql_query query execute_sql run_sql db_query sql query_database execute_query", {
  kind: "sql",
  family: "generic",
  sqlArgs: ["sql", "query", "statement", "statements"],
});
def("git_commit", { kind: "vcs-commit", family: "generic" });
def("git_push", { kind: "vcs-push", family: "generic" });
def("git_status git_diff git_diff_staged git_diff_unstaged git_log git_show git_blame", {
  kind: "read",
  family: "generic",
  pathArgs: ["repo_path"],
});
def("todo_write update_todos write_todos plan think final_answer respond answer attempt_completion ask_followup_question", {
  kind: "internal",
  family: "generic",
});

for (const [names, profile] of RUNTIME_TOOLS) def(names, profile);

/** MCP servers whose tool names mean what the generic names above mean. */
const TRUSTED_MCP_SERVERS = new Set([
  "filesystem",
  "fs",
  "server-filesystem",
  "file-system",
  "git",
  "server-git",
  "fetch",
  "server-fetch",
]);

/** Looks up a tool by name (as reported by the runtime) and its MCP annotations. */
const byName = new Map<string, ToolKnowledge>();

export function toolKnowledge(name: string, annotations?: SpanInput["toolAnnotations"]): ToolKnowledge {
  if (!annotations) {
    let k = byName.get(name);
    if (k === undefined) {
      k = knowledge(name, undefined);
      if (byName.size < 10_000) byName.set(name, k);
    }
    return k;
  }
  return knowledge(name, annotations);
}

function knowledge(name: string, annotations: SpanInput["toolAnnotations"]): ToolKnowledge {
  const base = lookup(name);
  const known = base !== null;
  const profile: ToolKnowledge = base
    ? { ...base.profile, canonical: base.canonical, known }
    : { kind: "unknown", family: "unknown", canonical: name, known: false };
  if (annotations) {
    const readOnly = annotations.readOnlyHint === true;
    const flaggedWrite = annotations.readOnlyHint === false || annotations.destructiveHint === true;
    if (readOnly && (profile.kind === "unknown" || profile.kind === "read")) {
      return { ...profile, kind: "read", annotated: "read-only" };
    }
    if (flaggedWrite && (profile.kind === "read" || profile.kind === "internal")) {
      return { ...profile, kind: "unknown", annotated: "destructive" };
    }
  }
  return profile;
}

function lookup(name: string): { profile: ToolProfile; canonical: string } | null {
  const direct = own(P, name);
  if (direct) return { profile: direct, canonical: name };
  // OpenAI-style "functions.write_file".
  const n = name.startsWith("functions.") ? name.slice("functions.".length) : name;
  const parts = mcpToolParts(n);
  // A server's tool (mcp__<server>__<tool>, <server>__<tool>, <server>.<tool>): the generic names
  // mean what they say only on servers known to use them so; any other is known by its verb.
  if (parts.server !== undefined && !TRUSTED_MCP_SERVERS.has(parts.server.toLowerCase())) return byVerb(parts.tool, name);
  return generic(parts.tool) ?? byVerb(parts.tool, name);
}

function generic(n: string): { profile: ToolProfile; canonical: string } | null {
  const snake = n
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[-\s]/g, "_")
    .toLowerCase();
  const hit = own(P, n) ?? own(P, snake);
  return hit ? { profile: hit, canonical: own(P, n) ? n : snake } : null;
}

const MCP_WRITE: ToolProfile = { kind: "remote-write", family: "mcp" };
const MCP_READ: ToolProfile = { kind: "read", family: "mcp" };

/** A tool known only by its name's verb (mcp-tools.ts); null when the verb says nothing. */
function byVerb(tool: string, name: string): { profile: ToolProfile; canonical: string } | null {
  const verb = mcpVerb(tool);
  return verb === null ? null : { profile: verb === "write" ? MCP_WRITE : MCP_READ, canonical: name };
}

/** The effect a tool kind has on its own (before looking at its arguments). */
export const KIND_EFFECT: Partial<Record<ToolKind, { effect: SideEffectKind; rule: string }>> = {
  write: { effect: "FILE_WRITE", rule: "tool.write" },
  delete: { effect: "FILE_DELETE", rule: "tool.delete" },
  move: { effect: "FILE_MOVE", rule: "tool.move" },
  editor: { effect: "FILE_WRITE", rule: "tool.edit" },
  patch: { effect: "FILE_WRITE", rule: "tool.patch" },
  "vcs-commit": { effect: "VCS_COMMIT", rule: "tool.vcs-commit" },
  "vcs-push": { effect: "VCS_PUSH", rule: "tool.vcs-push" },
  code: { effect: "SHELL_MUTATION", rule: "tool.code" },
  process: { effect: "SHELL_MUTATION", rule: "tool.process" },
  spawn: { effect: "PROCESS_SPAWN", rule: "tool.subagent" },
  submit: { effect: "SHELL_MUTATION", rule: "tool.submit" },
  "remote-write": { effect: "NETWORK_MUTATION", rule: "tool.mcp-write" },
  unknown: { effect: "UNKNOWN_TOOL", rule: "tool.unknown" },
};

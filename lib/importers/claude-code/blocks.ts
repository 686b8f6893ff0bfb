/**
 * Claude Code's record vocabulary, as its runtime writes it: which records, progress data types,
 * system subtypes and content blocks carry no evidence (each ignored on purpose, with the reason),
 * and how a tool_result says what became of its call.
 */
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import { z } from "zod";
import type { DraftSpan } from "../shared/builder";
import type { JsonLine } from "../shared/jsonl";
import { isRecord } from "../shared/text";

/** Record types that carry no transcript content, each ignored on purpose. */
export const CLAUDE_IGNORED_RECORD_TYPES: Readonly<Record<string, string>> = {
  "file-history-snapshot": "the runtime's file-backup bookkeeping for undo (paths and backup names, no content)",
  "queue-operation": "prompts queued while the agent was busy; the prompt itself is recorded as a user record",
  "last-prompt": "a pointer to the last prompt, for resuming",
  "permission-mode": "the session's permission mode setting",
  tag: "a tag the user gave the session in /resume",
  "agent-name": "a display name for the session's agent",
  "agent-color": "a display colour for the session's agent",
  "agent-setting": "the agent definition the session was started with",
  "pr-link": "a link from the session to a pull request",
  mode: "coordinator or normal session mode",
  "worktree-state": "whether the session is inside a git worktree, for resuming",
  "attribution-snapshot": "character counts of Claude's contributions to files, for commit attribution",
  "speculation-accept": "time saved by an accepted speculative response",
  "content-replacement": "which tool results the runtime shortened in the model's context (the transcript keeps them)",
  "ended-by-model": "a marker that the model ended the session (no content)",
  relocated: "the folder the session was moved to, for resuming",
  "frame-link": "a link from the session to a preview frame's URL",
  "bridge-session": "the remote-control bridge's session id and last sequence number",
  "isolation-latch": "which side of the session's isolation (sandbox) the session is latched to",
  "fork-context-ref":
    "a forked subagent's pointer to the parent session's messages it starts from (those messages are in the parent's file)",
  "marble-origami-reset": "a context-collapse reset: discards the collapse commits before it (no content)",
};

/**
 * Record types the runtime can write whose content the importer cannot place, each skipped with
 * its reason (the session is then incomplete). Context collapse ("marble-origami") is in the
 * runtime's loader but its writers are not called by the public build (2.1.197); a commit stands
 * for a summary of archived messages in the model's context.
 */
export const CLAUDE_SKIPPED_RECORD_TYPES: Readonly<Record<string, string>> = {
  "marble-origami-commit":
    "context-collapse commit (a summary that replaced archived messages in the model's context) not supported; skipped",
  "marble-origami-snapshot": "context-collapse snapshot (staged collapses of the model's context) not supported; skipped",
};

/**
 * `progress` records by `data.type`. These are live progress of a running tool or hook, superseded
 * by the call's tool_result (or recording a hook the user configured, not an agent action); a
 * subagent's progress (SUBAGENT_PROGRESS_TYPES) is not on this list: it carries the subagent's work.
 */
export const CLAUDE_IGNORED_PROGRESS_TYPES: Readonly<Record<string, string>> = {
  bash_progress: "live output of a running shell command; its tool_result holds the final output",
  powershell_progress: "live output of a running PowerShell command; its tool_result holds the final output",
  mcp_progress: "status of a running MCP tool call; its tool_result holds the outcome",
  hook_progress: "a hook the user configured is about to run (the hook's command line), not an agent action",
  query_update: "a web search's live query text; the query is the call's input",
  search_results_received: "a web search's live result count; the results are its tool_result",
  waiting_for_task: "waiting on a background task; the task's output arrives as a tool_result",
  task_output_progress: "waiting on a background task; the task's output arrives as a tool_result",
  sleep_progress: "a running sleep's elapsed time",
  repl_progress: "live output of the REPL tool; its tool_result holds the final output",
};

/** `progress` data types that carry a subagent's (or forked skill's) own messages, tool calls and results. */
export const CLAUDE_SUBAGENT_PROGRESS_TYPES: readonly string[] = ["agent_progress", "skill_progress"];

/** `system` records by subtype: runtime notices that record nothing the agent did. */
export const CLAUDE_IGNORED_SYSTEM_SUBTYPES: Readonly<Record<string, string>> = {
  api_error: "a failed API request the runtime retried (status, retry count)",
  api_metrics: "API latency and throughput figures",
  turn_duration: "how long a turn took",
  stop_hook_summary: "which hooks the user configured ran at the end of a turn (their command lines), not agent actions",
  bridge_status: "remote-control connection status",
  thinking: "a spinner notice while the model thinks; the reasoning is in the assistant record",
  microcompact_boundary: "tool results cleared from the model's context; the transcript keeps them",
};

/** `system` subtypes whose `content` text is kept as a MESSAGE with role "system". */
export const CLAUDE_SYSTEM_MESSAGE_SUBTYPES: readonly string[] = [
  "informational",
  "local_command",
  "away_summary",
  "scheduled_task_fire",
  "permission_retry",
  "model_fallback",
  "model_refusal_fallback",
  "model_consent_fallback",
  "model_refusal_no_fallback",
];

/**
 * `system` subtypes whose evidence is a structured field, not `content`: kept as a MESSAGE with role
 * "system" whose body is the value at that path as the line holds it. `memory_saved`: the memory
 * files the runtime's background memory extraction wrote; `file_snapshot`: the runtime's copy of
 * session files (the plan) with their contents; `agents_killed`, the whole record (it has no text of
 * its own): the runtime stopped the session's running background agents, so their work ended there.
 */
export const CLAUDE_SYSTEM_FIELD_SUBTYPES: Readonly<Record<string, readonly string[]>> = {
  memory_saved: ["writtenPaths"],
  file_snapshot: ["snapshotFiles"],
  agents_killed: [],
};

/** Content blocks that hold no text an evidence question could use. */
export const CLAUDE_IGNORED_BLOCK_TYPES: Readonly<Record<string, string>> = {
  image: "binary image data",
  document: "an attached document's binary data",
  redacted_thinking: "encrypted reasoning with no readable text",
  container_upload: "the id of a file uploaded to the code-execution container (no content)",
};

/** Tool names whose successful result means exit code 0 (the runtime reports any other code as an error). */
const SHELL_TOOLS = new Set(["Bash", "PowerShell"]);

/**
 * Tool results the runtime writes when a person or policy refused the call: the user rejected it
 * at the permission prompt (or pressed Esc on it), a permission rule or mode denied it, a plan was
 * rejected. Texts as the runtime's messages define them.
 */
const DECLINED_PATTERNS: readonly RegExp[] = [
  /^The user doesn't want to proceed with this tool use\./,
  /^The user doesn't want to take this action right now\./,
  /^Permission for this tool use was denied\./,
  // A rule ("has been denied. Reason: ...") or the auto mode classifier ("was denied by the ...").
  /^Permission for this action (has been|was) denied\b/,
  // "Permission to use Bash with command ... has been denied.", "... with <rule content> ...",
  // "Permission to edit <path> ...", "Permission to read <path> ...", "... because ... don't ask mode".
  /^Permission to (use|edit|read) [\s\S]*?has been denied/,
  /^Agent type '[^']*' has been denied by permission rule/,
  /^\S+ was denied by this session's URL provenance check\./,
  // A PreToolUse hook that blocked the call (exit code 2, or its JSON's permissionDecision "deny").
  /^PreToolUse:\S+ hook error: /,
  /^Execution stopped by PreToolUse hook\b/,
  /^The agent proposed a plan that was rejected by the user\./,
];

/**
 * The runtime's CANCEL_MESSAGE. As the record's whole `toolUseResult` it is the result of a call the
 * user's interrupt (Esc) cancelled while it was validated, awaited permission or was already running
 * (phases the record does not tell apart); with `toolUseResult` "Error: <reason>" a PreToolUse hook
 * stopped the call before it ran, and as text alone (older versions) it is read as a refusal.
 */
const CANCEL_MESSAGE =
  "The user doesn't want to take this action right now. STOP what you are doing and wait for the user to tell you how to proceed.";

/**
 * `toolUseResult` values of a call the user's interrupt aborted: the streaming executor's result for
 * a call it had queued or started ("User rejected tool use", with the rejection text as content),
 * and the cancelled call's CANCEL_MESSAGE. Whether the call had begun is not recorded: UNKNOWN.
 */
const ABORTED_RESULTS = new Set(["User rejected tool use", CANCEL_MESSAGE]);

/** A running tool that stopped on the user's interrupt (its AbortError's text): begun, not completed. */
const INTERRUPTED_RESULT = /^\[Request interrupted by user for tool use\]/;

/**
 * A shell's `returnCodeInterpretation` for an exit code the runtime does not count as an error: the
 * command exited 1 (grep/rg found nothing, diff found differences, find hit an unreadable folder,
 * test was false). The result then states no exit code of its own.
 */
const NON_ERROR_EXIT_1 = new Set([
  "No matches found",
  "Files differ",
  "Some directories were inaccessible",
  "Condition is false",
]);

/** Results the runtime writes for a call it never started (a parallel call failed first, a discarded stream). */
const NOT_RUN_PATTERNS: readonly RegExp[] = [
  /^<tool_use_error>Sibling tool call errored<\/tool_use_error>/,
  /^<tool_use_error>Cancelled: parallel tool call\b/,
  /^<tool_use_error>Error: Streaming fallback - tool execution discarded<\/tool_use_error>/,
];

/** A result the runtime made up to keep calls and results paired: it says nothing about the call. */
const PLACEHOLDER_RESULT = "[Tool result missing due to internal error]";

export interface ResultFacts {
  outcome: ToolOutcome;
  exitCode?: number;
}

/**
 * What a tool_result says became of its call: its text, `is_error`, and the record's
 * `toolUseResult` (the tool's own output object: `interrupted`, `stderr`, `exitCode`/`returnCode`,
 * `backgroundTaskId`, or the string "User rejected tool use").
 */
export function resultFacts(
  text: string,
  isError: boolean,
  toolUseResult: unknown,
  toolName: string | undefined,
  denialKind?: unknown,
): ResultFacts {
  const trimmed = text.trimStart();
  // The record's `toolDenialKind` ("user-rejected", "permission-rule", "automode-blocked", ...) is
  // the runtime's own statement that the call was refused.
  const deniedByRecord = typeof denialKind === "string" && denialKind !== "";
  if (typeof toolUseResult === "string" && ABORTED_RESULTS.has(toolUseResult)) return { outcome: "UNKNOWN" };
  if (deniedByRecord || DECLINED_PATTERNS.some((p) => p.test(trimmed))) return { outcome: "DECLINED" };
  if (INTERRUPTED_RESULT.test(trimmed)) return { outcome: "FAILED" };
  if (NOT_RUN_PATTERNS.some((p) => p.test(trimmed))) return { outcome: "NOT_RUN" };
  if (trimmed === PLACEHOLDER_RESULT) return { outcome: "UNKNOWN" };
  const fields = isRecord(toolUseResult) ? toolUseResult : {};
  const exitCode = statedExitCode(trimmed, fields);
  if (exitCode === undefined && !isError && fields.interrupted !== true && nonErrorExit(fields)) {
    return { outcome: "SUCCEEDED", exitCode: 1 };
  }
  if (fields.interrupted === true) return { outcome: "FAILED", ...(exitCode !== undefined ? { exitCode } : {}) };
  if (isError) return { outcome: "FAILED", ...(exitCode !== undefined ? { exitCode } : {}) };
  if (exitCode !== undefined && exitCode !== 0) return { outcome: "FAILED", exitCode };
  // Sent to the background: the call started and its end is not in this result.
  if (typeof fields.backgroundTaskId === "string" || /^Command running in background with ID:/.test(trimmed)) {
    return { outcome: "UNKNOWN" };
  }
  const code = exitCode ?? (toolName !== undefined && SHELL_TOOLS.has(toolName) ? 0 : undefined);
  return { outcome: "SUCCEEDED", ...(code !== undefined ? { exitCode: code } : {}) };
}

/**
 * The exit code a result states: "Exit code N" opening its text, the tool output's own field, or a
 * shell's interpretation "Command failed with exit code N" (written when the command was interrupted).
 */
function statedExitCode(text: string, fields: Record<string, unknown>): number | undefined {
  const stated = /^Exit code (-?\d+)/.exec(text);
  if (stated) return Number(stated[1]);
  for (const key of ["exitCode", "returnCode"]) {
    const value = fields[key];
    if (typeof value === "number" && Number.isInteger(value)) return value;
  }
  const interpreted =
    typeof fields.returnCodeInterpretation === "string"
      ? /^Command failed with exit code (-?\d+)/.exec(fields.returnCodeInterpretation)
      : null;
  return interpreted ? Number(interpreted[1]) : undefined;
}

/** The shell exited 1 and the runtime read that as an answer, not a failure (NON_ERROR_EXIT_1). */
function nonErrorExit(fields: Record<string, unknown>): boolean {
  return typeof fields.returnCodeInterpretation === "string" && NON_ERROR_EXIT_1.has(fields.returnCodeInterpretation);
}

/**
 * A subagent's type: the progress record's own field, else the calling Task/Agent tool_use's
 * `subagent_type` (a Task call naming none runs the general-purpose agent), or the forked skill.
 */
export function subagentType(
  dataType: string,
  data: Record<string, unknown>,
  call: { name: string; input: unknown } | undefined,
): string | undefined {
  const own = typeof data.agentType === "string" ? data.agentType : data.subagent_type;
  if (typeof own === "string" && own !== "") return own;
  const input = isRecord(call?.input) ? call.input : {};
  if (typeof input.subagent_type === "string") return input.subagent_type;
  if (dataType === "skill_progress") return typeof input.skill === "string" ? `skill:${input.skill}` : "skill";
  return call ? "general-purpose" : undefined;
}

/** A tool result's text: the string, or its text blocks joined by newlines. */
export function resultText(content: string | unknown[] | undefined): string {
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  return content
    .map((b) => (isRecord(b) && b.type === "text" && typeof b.text === "string" ? b.text : undefined))
    .filter((t): t is string => t !== undefined)
    .join("\n");
}

/**
 * The file's parent chain: every record names its parent by `parentUuid`, so a parent that is not
 * in the file means a record is missing. Not a gap: a record with no parent (a chain's root, a
 * compact boundary, whose `logicalParentUuid` points before the compaction on purpose, a
 * subagent's first record). The first chained record of a session naming a parent outside the
 * file is the other kind of gap: the file starts after its session began (a continued session's
 * file, a file cut at its start), so what came before is not here. Undetectable: deleting a
 * session's first record when it had no parent, or the last records of a chain (nothing names
 * them), and records without a uuid.
 */
export class ParentChain<S> {
  private readonly uuids = new Set<string>();
  private readonly started = new Set<S>();

  /** A record uuid of the file (all are noted before any record is checked). */
  note(uuid: unknown): void {
    if (typeof uuid === "string") this.uuids.add(uuid);
  }

  /**
   * The parent uuid a record of `session` names that the file lacks, if any, and whether the record
   * is the session's first in the file (`atStart`: the file starts after the session began).
   */
  missingParent(session: S, parent: unknown): { parent: string; atStart: boolean } | undefined {
    const atStart = !this.started.has(session);
    this.started.add(session);
    if (typeof parent !== "string" || parent === "" || this.uuids.has(parent)) return undefined;
    return { parent, atStart };
  }
}

/**
 * The uuids of the messages a compact boundary says the compaction kept (they stay where they are,
 * before the boundary, and are not replaced by its summary): `compactMetadata.preservedMessages.uuids`,
 * else `preservedSegment` walked from `tailUuid` back to `headUuid` by parentUuid, as the runtime
 * relinks them on resume. A walk that does not reach the head keeps nothing (the runtime then drops
 * the segment too).
 */
export function preservedUuids(metadata: unknown, parentOf: ReadonlyMap<string, unknown>): Set<string> {
  const kept = new Set<string>();
  if (!isRecord(metadata)) return kept;
  const listed = isRecord(metadata.preservedMessages) ? metadata.preservedMessages.uuids : undefined;
  if (Array.isArray(listed)) {
    for (const uuid of listed) if (typeof uuid === "string") kept.add(uuid);
    return kept;
  }
  const segment = isRecord(metadata.preservedSegment) ? metadata.preservedSegment : undefined;
  if (typeof segment?.tailUuid !== "string" || typeof segment.headUuid !== "string") return kept;
  const walked = new Set<string>();
  let uuid: unknown = segment.tailUuid;
  while (typeof uuid === "string" && parentOf.has(uuid) && !walked.has(uuid)) {
    walked.add(uuid);
    if (uuid === segment.headUuid) return walked;
    uuid = parentOf.get(uuid);
  }
  return kept;
}

export const MessageRecord = z.looseObject({
  type: z.enum(["user", "assistant"]),
  uuid: z.string().optional(),
  cwd: z.string().optional(),
  isCompactSummary: z.boolean().optional(),
  isMeta: z.boolean().optional(),
  message: z.looseObject({
    role: z.string().optional(),
    content: z.union([z.string(), z.array(z.unknown())]),
  }),
});
export type MessageRecord = z.infer<typeof MessageRecord>;

export const ToolUse = z.looseObject({ id: z.string(), name: z.string(), input: z.unknown() });
export const ToolResult = z.looseObject({
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(z.unknown())]).optional(),
  is_error: z.boolean().optional(),
});

/** The runtime's note that the user interrupted a turn: not a prompt, so not a title. */
export const INTERRUPTED = /^\[Request interrupted by user/;

/** The agentId of a subagent's sidechain record (its own file), if the record is one. */
export function sidechainAgent(record: Record<string, unknown>): string | undefined {
  return record.isSidechain === true && typeof record.agentId === "string" && record.agentId !== "" ? record.agentId : undefined;
}

export interface PendingBoundary {
  line: number;
  replaced: DraftSpan[];
}

/** Where a message's spans come from: its line, the JSON path of the message record, the agent. */
export interface Origin {
  line: JsonLine;
  /** Path from the line's root to the message record ([] for a top-level record). */
  path: Array<string | number>;
  agentId?: string;
  agentType?: string;
}

export type Base = Pick<DraftSpan, "occurredAt" | "sourceLine" | "sourceId" | "agentId" | "agentType" | "cwd">;

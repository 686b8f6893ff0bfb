/**
 * `custodian hook <runtime> <event>`: a compaction hook for Claude Code or Codex CLI. Reads the
 * runtime's hook JSON on stdin and answers the way the runtime expects:
 *
 * - pre-compact: imports what is new in the transcript and asks the gate about the verbatim spans
 *   the compaction may take. Allowed: nothing printed (Claude Code hands a PreCompact hook's output
 *   to the summarizer), exit 0. Blocked (fail-closed only, when Custodian cannot hold them or cannot
 *   be reached): Claude Code, the reason on stderr and exit 2; Codex, `{"continue":false,
 *   "stopReason":...}` and exit 0 (a non-zero exit is only a failed hook there).
 * - post-compact (Codex): imports the summary and links the compaction; prints nothing.
 * - session-start with source "compact": the same, then prints the evidence ledger as the
 *   session's additional context. Other sources: imports, prints nothing.
 * - stop and session-end: import the rest of the transcript (a session that never compacts is
 *   captured whole); print nothing, so the runtime stops as it would have.
 * - subagent-stop: imports the subagent's own transcript (`agent_transcript_path`) as the session
 *   a file import gives it, every span carrying the agent's id and its `agent_type` (which only
 *   the parent's call names, so the file alone cannot tell it). Claude Code: the session
 *   `<session_id>/agent-<agent_id>`. Codex (a thread-spawned subagent's turn end): its own rollout,
 *   whose session is its thread, `agent_id` (the rollout's session_meta id); the importer reads the
 *   same id (and the role) from session_meta's thread_spawn source, and the hook's is given to any
 *   span without one. Its seqs are the subagent file's own:
 *   kept apart, they never collide with the parent's.
 * - post-compact (Claude Code): imports the transcript, then stores the runtime's own summary
 *   (`compact_summary`) verbatim as a summary span linked to the spans it replaced.
 *
 * Field names relied on, as the runtimes document them: every event's `session_id` and
 * `transcript_path`; SessionStart's `source`; SubagentStop's `agent_id`, `agent_type` and
 * `agent_transcript_path` (Claude Code's, and Codex's subagent-stop.command.input.schema.json, whose
 * `transcript_path` is the parent's rollout), and Claude Code's PostCompact `compact_summary` (2.1.76 and later;
 * its `trigger` is not needed). Codex's PostCompact input carries no summary (its schema,
 * codex-rs/hooks/schema/generated/post-compact.command.input.schema.json, has `session_id`,
 * `transcript_path`, `trigger`, `turn_id`, `cwd`, `model`): the summary is read from the rollout's
 * `compacted` record instead; its Stop input (stop.command.input.schema.json) the same two ids.
 *
 * Fail-open is the default: any failure is one line on stderr and the runtime continues.
 * CUSTODIAN_FAIL_CLOSED=1 blocks instead (pre-compact only: after a compaction nothing is left
 * to block). A hard time limit (CUSTODIAN_HOOK_TIMEOUT_MS, default 10 s) bounds every hook.
 */
import type { ConnectionConfig } from "./hook-config";
import type { HookFormat } from "./hook-importers";
import { HookFailure, type SyncAnswer, syncTranscript } from "./hook-sync";

export const HOOK_RUNTIMES = ["claude-code", "codex"] as const;
export type HookRuntime = (typeof HOOK_RUNTIMES)[number];
export const HOOK_EVENTS: Record<HookRuntime, readonly string[]> = {
  "claude-code": ["pre-compact", "post-compact", "session-start", "stop", "subagent-stop", "session-end"],
  codex: ["pre-compact", "post-compact", "session-start", "stop", "subagent-stop"],
};

export interface HookAnswer {
  stdout: string;
  stderr: string;
  exitCode: number;
}

interface Payload {
  sessionId: string;
  transcriptPath: string | null;
  source?: string;
  /** SubagentStop: the subagent's own transcript, its id and its type. */
  agentTranscriptPath?: string;
  agentId?: string;
  agentType?: string;
  /** Claude Code's PostCompact: the summary the compaction wrote. */
  compactSummary?: string;
}

/** An optional string field of the input: absent, null and "" are all "not given". */
function optionalText(v: Record<string, unknown>, field: string): string | undefined {
  const value = v[field];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") throw new HookFailure(`${field} is not a string`);
  return value;
}

function parsePayload(stdin: string): Payload {
  let value: unknown;
  try {
    value = JSON.parse(stdin);
  } catch {
    throw new HookFailure("the hook input on stdin is not JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new HookFailure("the hook input is not a JSON object");
  const v = value as Record<string, unknown>;
  if (typeof v.session_id !== "string" || v.session_id === "") throw new HookFailure("the hook input has no session_id");
  const path = v.transcript_path;
  if (path !== undefined && path !== null && typeof path !== "string") throw new HookFailure("transcript_path is not a string");
  return {
    sessionId: v.session_id,
    transcriptPath: typeof path === "string" && path !== "" ? path : null,
    ...(typeof v.source === "string" ? { source: v.source } : {}),
    ...optionalFields(v),
  };
}

function optionalFields(v: Record<string, unknown>): Partial<Payload> {
  const fields: Partial<Payload> = {};
  const agentTranscriptPath = optionalText(v, "agent_transcript_path");
  const agentId = optionalText(v, "agent_id");
  const agentType = optionalText(v, "agent_type");
  const compactSummary = optionalText(v, "compact_summary");
  if (agentTranscriptPath) fields.agentTranscriptPath = agentTranscriptPath;
  if (agentId) fields.agentId = agentId;
  if (agentType) fields.agentType = agentType;
  if (compactSummary) fields.compactSummary = compactSummary;
  return fields;
}

const FORMAT: Record<HookRuntime, HookFormat> = { "claude-code": "claude-code", codex: "codex" };

/** The runtime's "stop" for a pre-compact hook, or its "continue" with the reason on stderr. */
function failure(runtime: HookRuntime, event: string, reason: string, config: ConnectionConfig): HookAnswer {
  const line = reason.replace(/\s+/g, " ").trim();
  if (!config.failClosed || event !== "pre-compact")
    return { stdout: "", stderr: `custodian: ${line} (compaction continues: fail-open)\n`, exitCode: 0 };
  const blocked = `Custodian blocked compaction: ${line}`;
  if (runtime === "claude-code") return { stdout: "", stderr: `${blocked}\n`, exitCode: 2 };
  return { stdout: `${JSON.stringify({ continue: false, stopReason: blocked })}\n`, stderr: `${blocked}\n`, exitCode: 0 };
}

function refusalReason(answer: SyncAnswer): string | undefined {
  const gate = answer.gate;
  if (!gate || gate.refusedCount === 0) return undefined;
  const first = gate.refused[0];
  return (
    `${gate.refusedCount} span${gate.refusedCount === 1 ? "" : "s"} the compaction may drop ${gate.refusedCount === 1 ? "has" : "have"} no durable original` +
    (first ? ` (e.g. span ${first.spanId}${first.seq !== null ? `, seq ${first.seq}` : ""}: ${first.reason})` : "")
  );
}

async function handle(
  runtime: HookRuntime,
  event: string,
  stdin: string,
  config: ConnectionConfig,
  signal: AbortSignal,
): Promise<HookAnswer> {
  if (!HOOK_EVENTS[runtime].includes(event)) throw new HookFailure(`unknown ${runtime} hook event "${event}"`);
  const payload = parsePayload(stdin);
  const afterCompaction = event === "session-start" && payload.source === "compact";
  if (event === "subagent-stop") {
    await syncSubagent(runtime, payload, config, signal);
    return { stdout: "", stderr: "", exitCode: 0 };
  }
  const answer = await syncTranscript(
    config,
    {
      format: FORMAT[runtime],
      sessionId: payload.sessionId,
      transcriptPath: payload.transcriptPath,
      gate: event === "pre-compact",
      ...(afterCompaction ? { ledgerLimit: config.ledgerLimit } : {}),
      ...(event === "post-compact" && payload.compactSummary ? { runtimeSummary: payload.compactSummary } : {}),
    },
    signal,
  );
  if (event === "pre-compact") {
    const refused = refusalReason(answer);
    if (refused) return failure(runtime, event, refused, config);
    return { stdout: "", stderr: "", exitCode: 0 };
  }
  if (afterCompaction && answer.ledgerText) {
    const output = { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: answer.ledgerText } };
    return { stdout: `${JSON.stringify(output)}\n`, stderr: "", exitCode: 0 };
  }
  return { stdout: "", stderr: "", exitCode: 0 };
}

/**
 * The subagent's own file, as the session a file import of it makes, with the hook's agent type on
 * every span of that agent. Without a transcript path there is nothing to read.
 */
async function syncSubagent(runtime: HookRuntime, payload: Payload, config: ConnectionConfig, signal: AbortSignal) {
  if (!payload.agentTranscriptPath) return;
  await syncTranscript(
    config,
    {
      format: FORMAT[runtime],
      sessionId: subagentSession(runtime, payload),
      transcriptPath: payload.agentTranscriptPath,
      gate: false,
      // A Codex rollout's records name no agent: every span of the subagent's rollout is its (as its session_meta says).
      ...(runtime === "codex" && payload.agentId ? { agentId: payload.agentId } : {}),
      ...(payload.agentType ? { agentType: payload.agentType } : {}),
    },
    signal,
  );
}

/** Claude Code names a subagent's file after the parent (`<session>/agent-<id>`); Codex's is its own thread. */
function subagentSession(runtime: HookRuntime, payload: Payload): string {
  if (!payload.agentId) return payload.sessionId;
  return runtime === "codex" ? payload.agentId : `${payload.sessionId}/agent-${payload.agentId}`;
}

const knownRuntime = (runtime: string) =>
  (HOOK_RUNTIMES as readonly string[]).includes(runtime) ? (runtime as HookRuntime) : undefined;

/**
 * The answer when the hook cannot do its work (its input never came, say): "continue" with the
 * reason on stderr, or fail-closed before compaction the runtime's "block".
 */
export function failureAnswer(runtime: string, event: string, reason: string, config: ConnectionConfig): HookAnswer {
  const known = knownRuntime(runtime);
  return known ? failure(known, event, reason, config) : failure("claude-code", "", reason, config);
}

/** Runs one hook within the time limit; never throws. */
export async function runHook(runtime: string, event: string, stdin: string, config: ConnectionConfig): Promise<HookAnswer> {
  const known = knownRuntime(runtime);
  if (!known) return failure("claude-code", "", `unknown runtime "${runtime}" (claude-code or codex)`, config);
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<HookAnswer>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve(failure(known, event, `no answer within ${config.timeoutMs} ms`, config));
    }, config.timeoutMs);
  });
  try {
    return await Promise.race([
      handle(known, event, stdin, config, controller.signal).catch((error: unknown) =>
        failure(
          known,
          event,
          error instanceof HookFailure ? error.message : `hook failed: ${error instanceof Error ? error.message : String(error)}`,
          config,
        ),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Reads stdin to its end (a runtime closes it after writing the payload). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

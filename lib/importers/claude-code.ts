/**
 * Claude Code session JSONL (one file per session under the user's projects folder).
 *
 * Mapping:
 * - `user` / `assistant` records: each `text` block (or string content) is a MESSAGE with the
 *   record's role; `thinking` blocks are MESSAGEs with role "reasoning"; each `tool_use` is a
 *   TOOL_CALL (toolName = name, toolInput = input, body = the input's JSON exactly as the line
 *   holds it); each `tool_result` is a TOOL_RESULT paired with its call by `tool_use_id` (toolName
 *   copied from the call; exit code from a leading "Exit code N" in an error result, else 1 for
 *   `is_error`, 0 otherwise).
 * - Compaction: a `system` record with subtype `compact_boundary` ends the current window; the
 *   following user record with `isCompactSummary: true` is a SUMMARY replacing the window's spans
 *   that are present in the file (none when the file starts at the boundary).
 * - `summary` and `ai-title` records title the session; they are not spans.
 * - Sessions are keyed by `sessionId`; `cwd` comes from the records. A subagent's sidechain records
 *   that name their `agentId` (written to their own file, but under the parent's sessionId) form
 *   their own session, `<sessionId>/agent-<agentId>`, so importing both files never mixes their seqs.
 */
import { z } from "zod";
import { Clock, ImportCollector, type DraftSpan, type SessionDraft } from "./builder";
import { rawValue } from "./json-scan";
import { readJsonLines, type JsonLine } from "./jsonl";
import type { ImportResult, TranscriptImporter } from "./types";
import { contentId, isRecord, looksInjected, str, titleFrom, utf8 } from "./text";
import { describeZodError } from "./zod-issue";

/** Record types that carry no transcript content, each ignored on purpose. */
export const CLAUDE_IGNORED_RECORD_TYPES: Readonly<Record<string, string>> = {
  "file-history-snapshot": "the runtime's file-backup bookkeeping for undo",
  "queue-operation": "prompts queued while the agent was busy; the prompt itself is recorded as a user record",
  "last-prompt": "a pointer to the last prompt, for resuming",
  progress: "live progress of a running tool or hook, superseded by its result",
};

/** Content blocks that hold no text an evidence question could use. */
export const CLAUDE_IGNORED_BLOCK_TYPES: Readonly<Record<string, string>> = {
  image: "binary image data",
  document: "an attached document's binary data",
  redacted_thinking: "encrypted reasoning with no readable text",
};

const MessageRecord = z.looseObject({
  type: z.enum(["user", "assistant"]),
  sessionId: z.string().optional(),
  uuid: z.string().optional(),
  cwd: z.string().optional(),
  isCompactSummary: z.boolean().optional(),
  isMeta: z.boolean().optional(),
  message: z.looseObject({
    role: z.string().optional(),
    content: z.union([z.string(), z.array(z.unknown())]),
  }),
});
type MessageRecord = z.infer<typeof MessageRecord>;

const ToolUse = z.looseObject({ id: z.string(), name: z.string(), input: z.unknown() });
const ToolResult = z.looseObject({
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(z.unknown())]).optional(),
  is_error: z.boolean().optional(),
});

interface PendingBoundary {
  line: number;
  replaced: DraftSpan[];
}

class ClaudeReader {
  readonly collector = new ImportCollector("claude-code");
  private readonly clock = new Clock(this.collector);
  private readonly calls = new Map<string, DraftSpan>();
  private readonly boundaries = new Map<SessionDraft, PendingBoundary>();
  /** uuid -> session, so a `summary` record's leafUuid can find the session it titles. */
  private readonly sessionOfUuid = new Map<string, SessionDraft>();
  private readonly titles: Array<{ leafUuid?: string; title: string }> = [];
  private currentSessionId: string | undefined;

  constructor(private readonly fileId: string) {}

  read(lines: JsonLine[]): ImportResult {
    for (const line of lines) this.record(line);
    for (const [, pending] of this.boundaries) {
      this.collector.issue(
        pending.line,
        "compact boundary with no compact summary after it in the file; nothing recorded for it",
      );
    }
    this.applyTitles();
    return this.collector.result();
  }

  private session(record: Record<string, unknown>): SessionDraft {
    if (typeof record.sessionId === "string" && record.sessionId !== "") this.currentSessionId = record.sessionId;
    const id = this.currentSessionId ?? `claude-code:${this.fileId}`;
    const agent =
      record.isSidechain === true && typeof record.agentId === "string" && record.agentId !== "" ? record.agentId : undefined;
    return this.collector.session(agent ? `${id}/agent-${agent}` : id);
  }

  private record(line: JsonLine): void {
    const r = line.value;
    const type = r.type;
    if (type === "user" || type === "assistant") return this.message(line);
    if (type === "system") return this.system(line);
    if (type === "summary" || type === "ai-title") {
      this.clock.see(r.timestamp);
      const title = str(r.summary) ?? str(r.aiTitle);
      if (title === undefined) return this.collector.issue(line.line, `${type} record without its text; skipped`);
      this.titles.push({ leafUuid: str(r.leafUuid), title });
      return;
    }
    if (typeof type === "string" && type in CLAUDE_IGNORED_RECORD_TYPES) return this.clock.see(r.timestamp);
    this.collector.issue(
      line.line,
      typeof type === "string" ? `unknown record type "${type}"; skipped` : "record without a type; skipped",
    );
  }

  private system(line: JsonLine): void {
    const r = line.value;
    this.clock.see(r.timestamp);
    // Other subtypes are runtime notices (API errors, hook output, command output, turn durations)
    // that record nothing the agent did.
    if (r.subtype !== "compact_boundary") return;
    const draft = this.session(r);
    this.noteCwd(draft, r.cwd);
    const previous = this.boundaries.get(draft);
    if (previous)
      this.collector.issue(
        previous.line,
        "compact boundary with no compact summary before the next boundary; its window joins the next one",
      );
    this.boundaries.set(draft, { line: line.line, replaced: [...(previous?.replaced ?? []), ...draft.cut()] });
  }

  private message(line: JsonLine): void {
    const parsed = MessageRecord.safeParse(line.value);
    if (!parsed.success) return this.collector.issue(line.line, `${describeZodError(parsed.error)}; skipped`);
    const r = parsed.data;
    const at = this.clock.at(line.line, line.value.timestamp);
    const draft = this.session(line.value);
    this.noteCwd(draft, r.cwd);
    if (r.uuid) this.sessionOfUuid.set(r.uuid, draft);
    if (r.isCompactSummary) return this.compactSummary(line, r, draft, at);

    const role = r.message.role ?? r.type;
    const base = { occurredAt: at, sourceLine: line.line, ...(r.uuid ? { sourceId: r.uuid } : {}) };
    if (typeof r.message.content === "string") {
      this.addText(draft, role, r.message.content, base, r.isMeta);
      return;
    }
    r.message.content.forEach((block, index) => this.block(line, draft, r, role, block, index, base));
  }

  private block(
    line: JsonLine,
    draft: SessionDraft,
    r: MessageRecord,
    role: string,
    block: unknown,
    index: number,
    base: { occurredAt: Date | undefined; sourceLine: number; sourceId?: string },
  ): void {
    const where = `message.content[${index}]`;
    if (!isRecord(block) || typeof block.type !== "string")
      return this.collector.issue(line.line, `${where}: not a content block; skipped`);
    switch (block.type) {
      case "text":
        if (typeof block.text !== "string") return this.collector.issue(line.line, `${where}: text block without text; skipped`);
        return this.addText(draft, role, block.text, base, r.isMeta);
      case "thinking":
        if (typeof block.thinking !== "string")
          return this.collector.issue(line.line, `${where}: thinking block without text; skipped`);
        draft.add({ ...base, kind: "MESSAGE", role: "reasoning", body: utf8(block.thinking) });
        return;
      case "tool_use": {
        const use = ToolUse.safeParse(block);
        if (!use.success) return this.collector.issue(line.line, `${where}: ${describeZodError(use.error)}; skipped`);
        const raw = rawValue(line.bytes, ["message", "content", index, "input"]);
        const call = draft.add({
          ...base,
          kind: "TOOL_CALL",
          toolName: use.data.name,
          toolInput: use.data.input,
          body: raw ? raw.slice() : utf8(JSON.stringify(use.data.input ?? null)),
          sourceId: use.data.id,
          ...(r.cwd ? { cwd: r.cwd } : {}),
        });
        this.calls.set(use.data.id, call);
        return;
      }
      case "tool_result": {
        const result = ToolResult.safeParse(block);
        if (!result.success) return this.collector.issue(line.line, `${where}: ${describeZodError(result.error)}; skipped`);
        const text = resultText(result.data.content);
        const call = this.calls.get(result.data.tool_use_id);
        draft.add({
          ...base,
          kind: "TOOL_RESULT",
          body: utf8(text),
          exitCode: exitCodeOf(text, result.data.is_error === true),
          sourceId: result.data.tool_use_id,
          ...(call?.toolName ? { toolName: call.toolName } : {}),
          ...(r.cwd ? { cwd: r.cwd } : {}),
        });
        return;
      }
      default:
        if (block.type in CLAUDE_IGNORED_BLOCK_TYPES) return;
        this.collector.issue(line.line, `${where}: unknown content block type "${block.type}"; skipped`);
    }
  }

  private addText(
    draft: SessionDraft,
    role: string,
    text: string,
    base: { occurredAt: Date | undefined; sourceLine: number; sourceId?: string },
    isMeta: boolean | undefined,
  ): void {
    draft.add({ ...base, kind: "MESSAGE", role, body: utf8(text) });
    if (draft.title === undefined && role === "user" && !isMeta && !looksInjected(text)) draft.title = titleFrom(text);
  }

  private compactSummary(line: JsonLine, r: MessageRecord, draft: SessionDraft, at: Date | undefined): void {
    const text = typeof r.message.content === "string" ? r.message.content : resultText(r.message.content);
    const pending = this.boundaries.get(draft);
    this.boundaries.delete(draft);
    // Without a boundary record the summary still replaced what came since the last compaction.
    const replaced = pending ? pending.replaced : [...draft.sinceLastCompaction()];
    draft.addSummary(
      { occurredAt: at, sourceLine: line.line, body: utf8(text), ...(r.uuid ? { sourceId: r.uuid } : {}) },
      replaced,
    );
  }

  private noteCwd(draft: SessionDraft, cwd: unknown): void {
    if (draft.cwd === undefined && typeof cwd === "string" && cwd !== "") draft.cwd = cwd;
  }

  /** A summary titles the session holding its leaf message; failing that, the only session. */
  private applyTitles(): void {
    const titled = new Set<SessionDraft>();
    for (const { leafUuid, title } of this.titles) {
      const draft = leafUuid ? this.sessionOfUuid.get(leafUuid) : undefined;
      const target = draft ?? (this.currentSessionId ? this.collector.session(this.currentSessionId) : undefined);
      if (target && !titled.has(target)) {
        target.title = title;
        titled.add(target);
      }
    }
  }
}

/** A tool result's text: the string, or its text blocks joined by newlines. */
function resultText(content: string | unknown[] | undefined): string {
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  return content
    .map((b) => (isRecord(b) && b.type === "text" && typeof b.text === "string" ? b.text : undefined))
    .filter((t): t is string => t !== undefined)
    .join("\n");
}

/** The shell's exit code when the result states it ("Exit code 2"), else 1 for an error, 0 otherwise. */
function exitCodeOf(text: string, isError: boolean): number {
  const stated = /^Exit code (-?\d+)/.exec(text);
  if (stated) return Number(stated[1]);
  return isError ? 1 : 0;
}

export function parseClaudeCode(bytes: Uint8Array): ImportResult {
  const reader = new ClaudeReader(contentId(bytes));
  const lines = readJsonLines(bytes, reader.collector);
  return reader.read(lines);
}

export const claudeCodeImporter: TranscriptImporter = {
  format: "claude-code",
  detect(head) {
    const conversational = /"type"\s*:\s*"(user|assistant|system)"/.test(head) && /"(sessionId|parentUuid)"\s*:/.test(head);
    const titleOnly = /"type"\s*:\s*"summary"/.test(head) && /"leafUuid"\s*:/.test(head);
    const snapshot = /"type"\s*:\s*"file-history-snapshot"/.test(head);
    return conversational || titleOnly || snapshot ? 0.8 : 0;
  },
  parse: parseClaudeCode,
};

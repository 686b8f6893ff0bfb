/**
 * Claude Code session JSONL (one file per session under the user's projects folder, and one per
 * subagent: `agent-<id>.jsonl`, in newer versions under `<session>/subagents/`).
 *
 * - `user` / `assistant` records: `text` blocks (or string content) are MESSAGEs with the record's
 *   role, `thinking` blocks MESSAGEs with role "reasoning", `tool_use` a TOOL_CALL (body = the input's
 *   JSON exactly as the line holds it), `tool_result` a TOOL_RESULT paired by `tool_use_id`; the
 *   result sets the call's outcome and exit code (resultFacts, which also reads the record's
 *   `toolUseResult` and `toolDenialKind`); a call with no result stays UNKNOWN. The API's server-side
 *   tools write both halves into the assistant's message: `server_tool_use` / `mcp_tool_use` are
 *   TOOL_CALLs (an MCP connector's as `mcp__<server>__<tool>`), `*_tool_result` / `mcp_tool_result`
 *   their TOOL_RESULTs (an `*_error` content FAILED); the API's `compaction` block is a SUMMARY of
 *   what came before it.
 * - Subagents: current versions (2.1.197 writes no `progress` records) leave a subagent's work to
 *   its own file, below. Older ones also reported it to the parent file as `progress` records with
 *   `data.type` "agent_progress" ("skill_progress" for a forked skill), each holding one subagent
 *   message in `data.message`. Those become spans of the parent session, in file order, with
 *   `agentId` and `agentType` (the calling tool_use's `subagent_type`, by `parentToolUseID`) and the
 *   nested uuid as sourceId, the ids the subagent's own file holds. That file's sidechain records
 *   (`isSidechain`, `agentId`, the parent's sessionId) form the session `<sessionId>/agent-<agentId>`,
 *   so importing both files never mixes seqs; a sidechain record whose message the same file holds
 *   as progress is not added twice. Version 1.0 wrote a subagent's records into the parent's file
 *   instead (`isSidechain` without `agentId`): they stay in its session, as the subagent's
 *   (./sidechains).
 * - Compaction: a `system` compact_boundary ends the window; the next user record with
 *   `isCompactSummary` is a SUMMARY replacing the window's spans present in the file, except the
 *   messages a partial compaction kept (the boundary's `compactMetadata.preservedMessages` /
 *   `preservedSegment`: they stay before the boundary, in the model's context).
 * - `attachment` records (context the runtime attached: file contents, hook output) are MESSAGEs
 *   with role "attachment", body = the attachment object as the line holds it.
 * - Other `system` subtypes are MESSAGEs (CLAUDE_SYSTEM_MESSAGE_SUBTYPES: their `content`;
 *   CLAUDE_SYSTEM_FIELD_SUBTYPES: a structured field's JSON, or the whole record), ignored
 *   (CLAUDE_IGNORED_SYSTEM_SUBTYPES) or skipped; `progress` data types likewise (CLAUDE_IGNORED_PROGRESS_TYPES); `summary`,
 *   `ai-title`, `custom-title` title the session. Metadata record types are ignored by name
 *   (CLAUDE_IGNORED_RECORD_TYPES); a type the importer cannot place is skipped with its reason
 *   (CLAUDE_SKIPPED_RECORD_TYPES), any other type as unknown.
 * - Parent chain: a record whose parentUuid names no record of the file is skipped against its
 *   session, a record before it being missing; a session's first record in the file naming one
 *   says the file starts after the session began (see ParentChain for what is not a gap; nor are
 *   the parent session's records a compaction agent's file opens with). A tool result whose call
 *   is not in the file is skipped against its session the same way: its call came before the file.
 */
import { Clock, ImportCollector, type SessionDraft } from "../shared/builder";
import { STARTS_AFTER_SESSION } from "../shared/partial-start";
import {
  CLAUDE_IGNORED_PROGRESS_TYPES,
  CLAUDE_IGNORED_RECORD_TYPES,
  CLAUDE_IGNORED_SYSTEM_SUBTYPES,
  CLAUDE_SKIPPED_RECORD_TYPES,
  CLAUDE_SUBAGENT_PROGRESS_TYPES,
  CLAUDE_SYSTEM_FIELD_SUBTYPES,
  CLAUDE_SYSTEM_MESSAGE_SUBTYPES,
  type Base,
  MessageRecord,
  type Origin,
  ParentChain,
  type PendingBoundary,
  preservedUuids,
  resultText,
  sidechainAgent,
  subagentType,
} from "./blocks";
import { BlockWriter } from "./content";
import { rawValue } from "../shared/json-scan";
import { InlineSidechains } from "./sidechains";
import { eachJsonLine, type JsonLine, UNREPORTED } from "../shared/jsonl";
import type { TranscriptBytes } from "../shared/source";
import type { ImportResult, ImportWindows, TranscriptImporter } from "../shared/types";
import { isRecord, lazyContentId, str, utf8 } from "../shared/text";
import { collectWindows } from "../shared/windows";
import { describeZodError } from "../shared/zod-issue";

class ClaudeReader {
  readonly collector = new ImportCollector("claude-code");
  private readonly clock = new Clock(this.collector);
  private readonly agentTypes = new Map<string, string>();
  private readonly boundaries = new Map<SessionDraft, PendingBoundary>();
  /** uuid -> session, so a `summary` record's leafUuid can find the session it titles. */
  private readonly sessionOfUuid = new Map<string, SessionDraft>();
  private readonly titles: Array<{ leafUuid?: string; title: string }> = [];
  private readonly chain = new ParentChain<SessionDraft>();
  /** Compaction agents' sessions whose model has answered (their own chain has begun). */
  private readonly answered = new Set<SessionDraft>();
  /** uuids of the subagent messages progress records hold, so sidechain copies are not added twice. */
  private readonly progressUuids = new Set<string>();
  /** Each record's parentUuid and line by its uuid, for the messages a compaction kept. */
  private readonly parentOf = new Map<string, unknown>();
  private readonly lineOf = new Map<string, number>();
  private readonly sidechains = new InlineSidechains(this.parentOf);
  private readonly blocks = new BlockWriter(this.collector, this.sidechains);
  private currentSessionId: string | undefined;

  constructor(private readonly fileId: () => string) {}

  /**
   * Two passes, each parsing the lines as it goes (no pass holds the whole file's parsed JSON): the
   * first notes every uuid (a parent may come later in the file) and the subagent messages progress
   * records hold; the second reads the records and reports each. The second hands its spans over
   * in windows of at least `windowSpans`, each closed after a record that leaves no call awaiting
   * its result (the result sets the call's outcome and exit code) and no span awaiting its time.
   */
  *windows(bytes: TranscriptBytes, windowSpans: number): ImportWindows {
    for (const { value, line } of eachJsonLine(bytes, UNREPORTED)) {
      this.chain.note(value.uuid);
      if (typeof value.uuid === "string" && !this.lineOf.has(value.uuid)) {
        this.parentOf.set(value.uuid, value.parentUuid);
        this.lineOf.set(value.uuid, line);
      }
      this.sidechains.note(value);
      const data = value.data;
      if (value.type === "progress" && isRecord(data) && isRecord(data.message) && typeof data.message.uuid === "string") {
        this.progressUuids.add(data.message.uuid);
      }
    }
    for (const line of eachJsonLine(bytes, this.collector)) {
      this.record(line);
      this.checkParent(line);
      if (this.blocks.awaiting.size === 0 && this.collector.pendingSpans >= windowSpans && this.collector.settled)
        yield { ...this.collector.takeWindow(), bytesRead: line.end };
    }
    for (const [draft, pending] of this.boundaries) {
      this.collector.skip(
        pending.line,
        "compact boundary with no compact summary after it in the file: what it replaced is not recorded",
        draft,
      );
    }
    this.applyTitles();
    const last = this.collector.takeWindow();
    if (last.sessions.length > 0) yield { ...last, bytesRead: bytes.byteLength };
    return this.collector.end();
  }

  private session(record: Record<string, unknown>): SessionDraft {
    if (typeof record.sessionId === "string" && record.sessionId !== "") this.currentSessionId = record.sessionId;
    const id = this.currentSessionId ?? `claude-code:${this.fileId()}`;
    const agent = sidechainAgent(record);
    return this.collector.session(agent ? `${id}/agent-${agent}` : id);
  }

  private record(line: JsonLine): void {
    const r = line.value;
    const type = r.type;
    if (type === "user" || type === "assistant") return this.message(line);
    if (type === "system") return this.system(line);
    if (type === "progress") return this.progress(line);
    if (type === "attachment") return this.attachment(line);
    if (type === "summary" || type === "ai-title" || type === "custom-title") return this.title(line);
    if (typeof type === "string" && type in CLAUDE_IGNORED_RECORD_TYPES) {
      this.clock.see(r.timestamp);
      return this.collector.ignore(line.line, type);
    }
    if (typeof type === "string" && type in CLAUDE_SKIPPED_RECORD_TYPES) {
      this.clock.see(r.timestamp);
      return this.collector.skip(line.line, CLAUDE_SKIPPED_RECORD_TYPES[type]!, this.sessionOf(r));
    }
    this.collector.skip(
      line.line,
      typeof type === "string" ? `unknown record type "${type}"; skipped` : "record without a type; skipped",
      this.sessionOf(r),
    );
  }

  /** The session a record names, without creating one for a record that names none. */
  private sessionOf(r: Record<string, unknown>): SessionDraft | undefined {
    return typeof r.sessionId === "string" && r.sessionId !== "" ? this.session(r) : undefined;
  }

  private title(line: JsonLine): void {
    const r = line.value;
    this.clock.see(r.timestamp);
    const title = str(r.summary) ?? str(r.aiTitle) ?? str(r.customTitle);
    if (title === undefined) return this.collector.skip(line.line, `${String(r.type)} record without its text; skipped`);
    this.collector.use(line.line);
    this.titles.push({ leafUuid: str(r.leafUuid), title });
  }

  private system(line: JsonLine): void {
    const r = line.value;
    const subtype = typeof r.subtype === "string" ? r.subtype : undefined;
    if (subtype === "compact_boundary") return this.boundary(line);
    if (subtype !== undefined && subtype in CLAUDE_IGNORED_SYSTEM_SUBTYPES) {
      this.clock.see(r.timestamp);
      return this.collector.ignore(line.line, `system:${subtype}`);
    }
    const draft = this.session(r);
    const field = subtype !== undefined ? CLAUDE_SYSTEM_FIELD_SUBTYPES[subtype] : undefined;
    if (field !== undefined) {
      const raw = rawValue(line.bytes, field);
      if (!raw)
        return this.collector.skip(line.line, `system record of subtype "${subtype}" without its ${field}; skipped`, draft);
      const at = this.clock.at(line.line, r.timestamp);
      this.noteCwd(draft, r.cwd);
      draft.add({ ...this.base(line, r, at), kind: "MESSAGE", role: "system", body: raw.slice() });
      return;
    }
    if (subtype === undefined || !CLAUDE_SYSTEM_MESSAGE_SUBTYPES.includes(subtype) || typeof r.content !== "string") {
      this.clock.see(r.timestamp);
      const what = subtype === undefined ? "system record without a subtype" : `system record of subtype "${subtype}"`;
      return this.collector.skip(line.line, `${what} not supported; skipped`, draft);
    }
    const at = this.clock.at(line.line, r.timestamp);
    this.noteCwd(draft, r.cwd);
    draft.add({ ...this.base(line, r, at), kind: "MESSAGE", role: "system", body: utf8(r.content) });
  }

  private boundary(line: JsonLine): void {
    const r = line.value;
    this.clock.see(r.timestamp);
    const draft = this.session(r);
    this.noteCwd(draft, r.cwd);
    this.collector.use(line.line);
    const previous = this.boundaries.get(draft);
    if (previous)
      this.collector.issue(
        previous.line,
        "compact boundary with no compact summary before the next boundary; its window joins the next one",
      );
    // A partial compaction keeps some messages before the boundary: its summary did not replace them.
    const keptLines = new Set<number>();
    for (const uuid of preservedUuids(r.compactMetadata, this.parentOf)) {
      const kept = this.lineOf.get(uuid);
      if (kept !== undefined) keptLines.add(kept);
    }
    const replaced = draft.cut().filter((span) => !keptLines.has(span.sourceLine));
    this.boundaries.set(draft, { line: line.line, replaced: [...(previous?.replaced ?? []), ...replaced] });
  }

  private attachment(line: JsonLine): void {
    const r = line.value;
    const draft = this.session(r);
    const raw = rawValue(line.bytes, ["attachment"]);
    if (!isRecord(r.attachment) || !raw)
      return this.collector.skip(line.line, "attachment record without its attachment; skipped", draft);
    const at = this.clock.at(line.line, r.timestamp);
    this.noteCwd(draft, r.cwd);
    draft.add({ ...this.base(line, r, at), kind: "MESSAGE", role: "attachment", body: raw.slice() });
  }

  private progress(line: JsonLine): void {
    const r = line.value;
    const data = isRecord(r.data) ? r.data : undefined;
    const dataType = typeof data?.type === "string" ? data.type : undefined;
    if (dataType !== undefined && dataType in CLAUDE_IGNORED_PROGRESS_TYPES) {
      this.clock.see(r.timestamp);
      return this.collector.ignore(line.line, `progress:${dataType}`);
    }
    const draft = this.session(r);
    if (data === undefined || dataType === undefined || !CLAUDE_SUBAGENT_PROGRESS_TYPES.includes(dataType)) {
      this.clock.see(r.timestamp);
      const what = dataType === undefined ? "progress record without a data type" : `progress record of type "${dataType}"`;
      return this.collector.skip(line.line, `${what} not supported; skipped`, draft);
    }
    const agentId = str(data.agentId);
    const parentToolUseId = str(r.parentToolUseID);
    const agentType = subagentType(dataType, data, parentToolUseId ? this.blocks.agentCalls.get(parentToolUseId) : undefined);
    if (agentId && agentType) this.agentTypes.set(agentId, agentType);
    const origin: Origin = {
      line,
      path: ["data", "message"],
      ...(agentId ? { agentId } : {}),
      ...(agentType ? { agentType } : {}),
    };
    const parsed = MessageRecord.safeParse(data.message);
    if (!parsed.success) {
      this.clock.see(r.timestamp);
      return this.collector.skip(line.line, `data.message: ${describeZodError(parsed.error)}; skipped`, draft);
    }
    const nested = data.message as Record<string, unknown>;
    const at = this.clock.at(line.line, nested.timestamp ?? r.timestamp);
    this.noteCwd(draft, r.cwd);
    this.content(origin, draft, parsed.data, at, str(r.cwd), nested.toolUseResult);
  }

  private message(line: JsonLine): void {
    const r = line.value;
    const parsed = MessageRecord.safeParse(r);
    if (!parsed.success) {
      this.clock.see(r.timestamp);
      return this.collector.skip(line.line, `${describeZodError(parsed.error)}; skipped`, this.sessionOf(r));
    }
    const draft = this.session(r);
    const agentId = sidechainAgent(r);
    if (agentId && typeof r.uuid === "string" && this.progressUuids.has(r.uuid)) {
      // The same subagent message is already imported from the parent's progress record.
      this.clock.see(r.timestamp);
      return this.collector.use(line.line);
    }
    const at = this.clock.at(line.line, r.timestamp);
    this.noteCwd(draft, parsed.data.cwd);
    if (parsed.data.uuid) this.sessionOfUuid.set(parsed.data.uuid, draft);
    const agentType = agentId ? this.agentTypes.get(agentId) : undefined;
    const agent = agentId
      ? { agentId, ...(agentType ? { agentType } : {}) }
      : this.sidechains.agentOf(r, parsed.data.message.content);
    const origin: Origin = { line, path: [], ...agent };
    this.content(origin, draft, parsed.data, at, parsed.data.cwd, r.toolUseResult);
  }

  private content(
    origin: Origin,
    draft: SessionDraft,
    r: MessageRecord,
    at: Date | undefined,
    cwd: string | undefined,
    toolUseResult: unknown,
  ): void {
    if (r.isCompactSummary && origin.path.length === 0) return this.compactSummary(origin.line, r, draft, at);
    const role = r.message.role ?? r.type;
    const base = this.base(origin.line, r, at, origin, cwd);
    if (typeof r.message.content === "string") {
      this.blocks.addText(draft, role, r.message.content, base, r.isMeta);
      return;
    }
    if (r.message.content.length === 0) return this.collector.use(origin.line.line);
    r.message.content.forEach((block, index) => this.blocks.block(origin, draft, r, role, block, index, base, toolUseResult));
  }

  private base(line: JsonLine, r: { uuid?: unknown }, at: Date | undefined, origin?: Origin, cwd?: string): Base {
    // A record with no message (system, attachment) of a 1.0 sidechain is its subagent's too.
    const agent = origin ?? this.sidechains.agentOf(line.value);
    return {
      occurredAt: at,
      sourceLine: line.line,
      ...(typeof r.uuid === "string" ? { sourceId: r.uuid } : {}),
      ...(agent?.agentId ? { agentId: agent.agentId } : {}),
      ...(agent?.agentType ? { agentType: agent.agentType } : {}),
      ...(cwd ? { cwd } : {}),
    };
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

  private checkParent(line: JsonLine): void {
    const r = line.value;
    if (!("parentUuid" in r) || typeof r.uuid !== "string") return;
    const draft = this.session(r);
    // A compaction agent's file (`agent-acompact-<id>.jsonl`) opens with the parent session's
    // latest injected user records, each naming its parent in the parent session: copies, not gaps.
    // Its own chain (from its first assistant record on) is checked like any other.
    const compaction = sidechainAgent(r)?.startsWith("acompact-") === true;
    if (compaction && r.type === "assistant") this.answered.add(draft);
    const leadingCopy = compaction && r.type === "user" && !this.answered.has(draft);
    const missing = this.chain.missingParent(draft, leadingCopy ? undefined : r.parentUuid);
    if (!missing) return;
    const why = missing.atStart
      ? `${STARTS_AFTER_SESSION}: the first record's parentUuid ${missing.parent} names no record in the file, so the records before it are missing`
      : `parentUuid ${missing.parent} names no record in the file: a record before this one is missing`;
    this.collector.skip(line.line, why, draft);
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

export function claudeCodeWindows(bytes: TranscriptBytes, windowSpans: number): ImportWindows {
  return new ClaudeReader(lazyContentId(bytes)).windows(bytes, windowSpans);
}

export function parseClaudeCode(bytes: Uint8Array): ImportResult {
  return collectWindows(claudeCodeWindows(bytes, Number.POSITIVE_INFINITY));
}

export const claudeCodeImporter: TranscriptImporter = {
  format: "claude-code",
  detect(head) {
    const conversational =
      /"type"\s*:\s*"(user|assistant|system|progress|attachment)"/.test(head) && /"(sessionId|parentUuid)"\s*:/.test(head);
    const titleOnly = /"type"\s*:\s*"summary"/.test(head) && /"leafUuid"\s*:/.test(head);
    const snapshot = /"type"\s*:\s*"file-history-snapshot"/.test(head);
    return conversational || titleOnly || snapshot ? 0.8 : 0;
  },
  parse: parseClaudeCode,
  windows: claudeCodeWindows,
};

/**
 * Claude Code message content (see ./index): each content block of a user or assistant
 * message as its span (text, thinking, tool_use, tool_result), tool results paired with their
 * calls by tool_use id, and the session's title from its first real prompt.
 */
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import type { DraftSpan, ImportCollector, SessionDraft } from "../shared/builder";
import {
  type Base,
  CLAUDE_IGNORED_BLOCK_TYPES,
  INTERRUPTED,
  type MessageRecord,
  type Origin,
  resultFacts,
  resultText,
  ToolResult,
  ToolUse,
} from "./blocks";
import type { InlineSidechains } from "./sidechains";
import { BackgroundShells } from "./background";
import { rawValue } from "../shared/json-scan";
import { isRecord, looksInjected, titleFrom, utf8 } from "../shared/text";
import { describeZodError } from "../shared/zod-issue";

/** Result blocks of the API's server-side tools, in the assistant's own message (not `tool_result`). */
const SERVER_TOOL_RESULT = /^[a-z_]+_tool_result$/;

/** Writes content blocks into their session, remembering the calls their results pair with. */
export class BlockWriter {
  /** Calls by tool_use id, for the results that follow. */
  readonly calls = new Map<string, DraftSpan>();
  /** Task/Agent/Skill calls by tool_use id: what a subagent's progress names as its parent. */
  readonly agentCalls = new Map<string, { name: string; input: unknown }>();
  /** Ids of calls whose result has not come yet: a result still to come changes its call. */
  readonly awaiting = new Set<string>();
  /** Background shells still running: a later read that sees one end finishes its Bash call. */
  private readonly background = new BackgroundShells(this.awaiting);

  constructor(
    private readonly collector: ImportCollector,
    private readonly sidechains: InlineSidechains,
  ) {}

  block(
    origin: Origin,
    draft: SessionDraft,
    r: MessageRecord,
    role: string,
    block: unknown,
    index: number,
    base: Base,
    toolUseResult: unknown,
  ): void {
    const line = origin.line.line;
    this.background.expire(line);
    const where = `${origin.path.length > 0 ? "data.message." : ""}message.content[${index}]`;
    const skip = (reason: string) => this.collector.skip(line, `${where}: ${reason}; skipped`, draft);
    if (!isRecord(block) || typeof block.type !== "string") return skip("not a content block");
    const { cwd: _cwd, ...plain } = base;
    switch (block.type) {
      case "text":
        if (typeof block.text !== "string") return skip("text block without text");
        return this.addText(draft, role, block.text, plain, r.isMeta);
      case "thinking":
        if (typeof block.thinking !== "string") return skip("thinking block without text");
        draft.add({ ...plain, kind: "MESSAGE", role: "reasoning", body: utf8(block.thinking) });
        return;
      case "tool_use":
      case "server_tool_use":
      case "mcp_tool_use": {
        const use = ToolUse.safeParse(block);
        if (!use.success) return skip(describeZodError(use.error));
        if (!("input" in block)) return skip("tool_use block without its input");
        const raw = rawValue(origin.line.bytes, [...origin.path, "message", "content", index, "input"]);
        // The API's MCP connector names the server apart; Claude Code's own MCP tools are mcp__<server>__<tool>.
        const server = block.type === "mcp_tool_use" && typeof block.server_name === "string" ? block.server_name : undefined;
        const call = draft.add({
          ...base,
          kind: "TOOL_CALL",
          toolName: server ? `mcp__${server}__${use.data.name}` : use.data.name,
          toolInput: use.data.input,
          body: raw ? raw.slice() : utf8(JSON.stringify(use.data.input ?? null)),
          sourceId: use.data.id,
        });
        this.calls.set(use.data.id, call);
        this.awaiting.add(use.data.id);
        if (["Task", "Agent", "Skill"].includes(use.data.name)) {
          // Only what names the subagent (subagentType): a prompt is a body, kept with its span alone.
          const input = isRecord(use.data.input) ? use.data.input : {};
          const names = { subagent_type: input.subagent_type, skill: input.skill };
          this.agentCalls.set(use.data.id, { name: use.data.name, input: names });
          this.sidechains.noteCall(use.data.input);
        }
        return;
      }
      case "tool_result": {
        const result = ToolResult.safeParse(block);
        if (!result.success) return skip(describeZodError(result.error));
        const text = resultText(result.data.content);
        const call = this.calls.get(result.data.tool_use_id);
        this.awaiting.delete(result.data.tool_use_id);
        if (!call) this.collector.skip(line, orphanResult(result.data.tool_use_id), draft);
        const denialKind = (r as Record<string, unknown>).toolDenialKind;
        const facts = resultFacts(text, result.data.is_error === true, toolUseResult, call?.toolName, denialKind);
        if (call) {
          call.outcome = facts.outcome;
          if (facts.exitCode !== undefined) call.exitCode = facts.exitCode;
          this.background.result(call, text, toolUseResult, line);
        }
        draft.add({
          ...base,
          kind: "TOOL_RESULT",
          body: utf8(text),
          ...(facts.exitCode !== undefined ? { exitCode: facts.exitCode } : {}),
          sourceId: result.data.tool_use_id,
          ...(call?.toolName ? { toolName: call.toolName } : {}),
        });
        return;
      }
      case "compaction":
        // The API's own compaction: its summary replaced everything before it in the model's context.
        if (typeof block.content !== "string") return skip("compaction block without its summary");
        draft.addSummary({ ...plain, body: utf8(block.content) });
        return;
      case "mcp_tool_result": {
        // The API's MCP connector: a result block in the assistant's own message, text like tool_result's.
        const result = ToolResult.safeParse(block);
        if (!result.success) return skip(describeZodError(result.error));
        const outcome = result.data.is_error === true ? "FAILED" : "SUCCEEDED";
        return this.addResult(draft, base, result.data.tool_use_id, utf8(resultText(result.data.content)), outcome);
      }
      default:
        if (SERVER_TOOL_RESULT.test(block.type)) {
          // A server tool's result (web_search_tool_result, advisor_tool_result, code execution, ...):
          // body = its content's JSON as the line holds it; an `*_error` content means the call failed.
          if (typeof block.tool_use_id !== "string" || !("content" in block))
            return skip(`${block.type} without its call id or content`);
          const raw = rawValue(origin.line.bytes, [...origin.path, "message", "content", index, "content"]);
          const content = block.content;
          const failed = isRecord(content) && typeof content.type === "string" && content.type.endsWith("_error");
          const code = isRecord(content) && typeof content.return_code === "number" ? content.return_code : undefined;
          const outcome = failed || (code !== undefined && code !== 0) ? "FAILED" : "SUCCEEDED";
          const body = raw ? raw.slice() : utf8(JSON.stringify(content ?? null));
          return this.addResult(draft, base, block.tool_use_id, body, outcome, code);
        }
        if (block.type in CLAUDE_IGNORED_BLOCK_TYPES) return this.collector.ignore(line, `block:${block.type}`);
        skip(`unknown content block type "${block.type}"`);
    }
  }

  /** A result block paired with its call by id, the call taking its outcome. */
  private addResult(
    draft: SessionDraft,
    base: Base,
    toolUseId: string,
    body: Uint8Array,
    outcome: ToolOutcome,
    exitCode?: number,
  ): void {
    const call = this.calls.get(toolUseId);
    this.awaiting.delete(toolUseId);
    if (!call) this.collector.skip(base.sourceLine, orphanResult(toolUseId), draft);
    if (call) {
      call.outcome = outcome;
      if (exitCode !== undefined) call.exitCode = exitCode;
    }
    draft.add({
      ...base,
      kind: "TOOL_RESULT",
      body,
      ...(exitCode !== undefined ? { exitCode } : {}),
      sourceId: toolUseId,
      ...(call?.toolName ? { toolName: call.toolName } : {}),
    });
  }

  addText(draft: SessionDraft, role: string, text: string, base: Base, isMeta: boolean | undefined): void {
    draft.add({ ...base, kind: "MESSAGE", role, body: utf8(text) });
    if (
      draft.title === undefined &&
      base.agentId === undefined &&
      role === "user" &&
      !isMeta &&
      !looksInjected(text) &&
      !INTERRUPTED.test(text)
    ) {
      draft.title = titleFrom(text);
    }
  }
}

/**
 * A result whose call is not in the file: the call, and whatever came with it, is missing, so the
 * result's bytes stay a span but the session is not whole (it may report the very act asked about).
 */
function orphanResult(toolUseId: string): string {
  return `tool_result for call ${toolUseId}, which is not in the file: the call and the records before it are missing`;
}

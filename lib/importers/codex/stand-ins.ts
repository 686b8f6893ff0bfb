/**
 * A Codex call known only from an event (an approval request, a begin or end event, a completed
 * turn item): the TOOL_CALL span made from what the event holds, and tool names as the runtime
 * routes them.
 */
import type { DraftSpan } from "../shared/builder";
import { filePath } from "./outcomes";
import { rawValue } from "../shared/json-scan";
import type { JsonLine } from "../shared/jsonl";
import { isRecord, str, utf8 } from "../shared/text";

type Base = { occurredAt: Date | undefined; sourceLine: number };

/**
 * The stand-in call an event makes (its record at `at` in the line): a command, a patch's changes,
 * an MCP invocation, or a turn item's tool and arguments; undefined when it holds none of them.
 */
export function standInSpan(
  line: JsonLine,
  type: string,
  p: Record<string, unknown>,
  base: Base,
  at: ReadonlyArray<string>,
  cwdHint: (explicit: string | undefined) => { cwd?: string },
): DraftSpan | undefined {
  const raw = (field: string) => rawValue(line.bytes, [...at, field]);
  const cwd = filePath(p.cwd);
  if ((Array.isArray(p.command) || typeof p.command === "string") && raw("command")) {
    const toolName = "shell";
    const toolInput = { command: p.command, ...(cwd ? { workdir: cwd } : {}) };
    // A proposal's whole event is the body (the command with its cwd, verbatim); an end event's
    // is its command only, since the rest of it is the result.
    const whole = type === "exec_command_end" ? undefined : rawValue(line.bytes, at);
    const body = (whole ?? raw("command")!).slice();
    return { ...base, kind: "TOOL_CALL", toolName, toolInput, body, ...cwdHint(cwd) };
  }
  if (isRecord(p.changes) && raw("changes")) {
    return {
      ...base,
      kind: "TOOL_CALL",
      toolName: "apply_patch",
      toolInput: { changes: p.changes },
      body: raw("changes")!.slice(),
      ...cwdHint(cwd),
    };
  }
  if (isRecord(p.invocation) && raw("invocation")) {
    const inv = p.invocation;
    const toolName = [str(inv.server), str(inv.tool)].filter(Boolean).join(".") || "mcp";
    return { ...base, kind: "TOOL_CALL", toolName, toolInput: inv.arguments ?? null, body: raw("invocation")!.slice() };
  }
  if (typeof p.tool === "string" && p.arguments !== undefined) {
    // A completed McpToolCall or DynamicToolCall turn item: the tool and its arguments at its top level.
    const toolName = typeof p.server === "string" ? `${p.server}.${p.tool}` : qualifiedName(p.namespace, p.tool);
    const body = raw("arguments") ?? utf8(JSON.stringify(p.arguments));
    return { ...base, kind: "TOOL_CALL", toolName, toolInput: p.arguments, body: body.slice() };
  }
  return undefined;
}

/**
 * A call's tool name with its namespace (`mcp__docs__` + `search`, `collaboration` + `spawn_agent`):
 * the runtime routes by both, and a bare name could pass for a different, known tool.
 */
export function qualifiedName(namespace: unknown, name: string): string {
  if (typeof namespace !== "string" || namespace === "") return name;
  return /[_./:-]$/.test(namespace) ? `${namespace}${name}` : `${namespace}.${name}`;
}

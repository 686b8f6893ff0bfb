/**
 * Every importer's calls read against their output (lib/evidence/output-signals.ts): the runtime's
 * own fields give an outcome, and the result's text can contradict it. Applied in one place, when
 * a session's spans are taken, so each format gets the same rules; the doubt is reported as a
 * warning on the call's line, and the outcome records it (FAILED with exit 0, or UNKNOWN).
 */
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import { readHiddenFailure } from "@/lib/evidence/exit-status-doubt";
import { readOutputIntoOutcome } from "@/lib/evidence/output-signals";
import { type ScriptOfCommand, scriptOfCommand } from "@/lib/evidence/shell/script-of";
import { toolKnowledge } from "@/lib/evidence/tools";
import type { SpanKind } from "@/lib/evidence/types";

/** What this reads of a draft span (builder.ts's DraftSpan, which imports this). */
export interface DraftCallOrResult {
  kind: SpanKind;
  dropped?: boolean;
  sourceId?: string;
  toolName?: string;
  toolInput?: unknown;
  outcome?: ToolOutcome;
  exitCode?: number;
  body: Uint8Array;
  sourceLine: number;
}

/** Tool kinds whose result is the output of what they ran: the ones whose output can contradict them. */
const RAN_SOMETHING = new Set(["shell", "code", "http", "agent-cli", "process"]);

const decoder = new TextDecoder("utf-8", { fatal: false });

/**
 * Reads each SUCCEEDED call of `spans` (in file order) against its result: the TOOL_RESULT sharing
 * its sourceId, else the next result of the same tool without one. `warn` gets the doubt.
 */
export function readCallOutputs(spans: readonly DraftCallOrResult[], warn: (line: number, message: string) => void): void {
  const bySource = new Map<string, DraftCallOrResult>();
  const open: DraftCallOrResult[] = [];
  for (const span of spans) {
    if (span.dropped) continue;
    if (span.kind === "TOOL_CALL") {
      if (span.sourceId !== undefined) bySource.set(span.sourceId, span);
      else open.push(span);
      continue;
    }
    if (span.kind !== "TOOL_RESULT") continue;
    let call: DraftCallOrResult | undefined;
    if (span.sourceId !== undefined) call = bySource.get(span.sourceId);
    else {
      const i = open.findIndex((c) => c.toolName === span.toolName);
      if (i >= 0) call = open.splice(i, 1)[0];
    }
    if (call) readOne(call, span, warn);
  }
}

function readOne(call: DraftCallOrResult, result: DraftCallOrResult, warn: (line: number, message: string) => void): void {
  if (call.outcome !== "SUCCEEDED" || call.toolName === undefined) return;
  const tool = toolKnowledge(call.toolName);
  if (!RAN_SOMETHING.has(tool.kind)) return;
  const output = outputText(decoder.decode(result.body));
  const exitCode = call.exitCode ?? result.exitCode;
  const said = { outcome: call.outcome, ...(exitCode !== undefined ? { exitCode } : {}) };
  const command = commandOf(call.toolInput, tool.commandArgs);
  let read = readOutputIntoOutcome(said, output, command?.script, tool.kind === "http");
  if (read.doubt === undefined && tool.kind === "shell") read = readHiddenFailure(said, output, command);
  if (read.doubt === undefined) return;
  call.outcome = read.outcome;
  if (call.exitCode === undefined && exitCode !== undefined) call.exitCode = exitCode;
  warn(call.sourceLine, `${call.toolName} call: ${read.outcome}, ${read.doubt}`);
}

/** The script a call ran (its command argument; a shell argv read for its `-c` script), when it has one. */
function commandOf(input: unknown, args: readonly string[] | undefined): ScriptOfCommand | null {
  if (typeof input !== "object" || input === null || !args) return null;
  const fields = input as Record<string, unknown>;
  for (const name of args) {
    const script = scriptOfCommand(fields[name]);
    if (script) return script;
  }
  return null;
}

/**
 * A result's text as the command wrote it: results that are a JSON object holding the output
 * (Codex's `{"output": ..., "metadata": ...}`) are read through it, so its lines are lines.
 */
function outputText(body: string): string {
  const t = body.trimStart();
  if (!t.startsWith("{")) return body;
  try {
    const v: unknown = JSON.parse(t);
    if (typeof v === "object" && v !== null && typeof (v as { output?: unknown }).output === "string")
      return (v as { output: string }).output;
  } catch {
    // Not JSON: the body is the output.
  }
  return body;
}

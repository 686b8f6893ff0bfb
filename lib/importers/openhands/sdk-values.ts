/** Values read out of OpenHands agent-SDK events: an ACP call's output, reasoning text, a tool observation's outcome. */
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import { rawValue } from "../shared/json-scan";
import type { EventRecord } from "./events";
import { isRecord, str, utf8 } from "../shared/text";

/** An ACP call's output: `raw_output`, else the text of its `content` blocks (diffs, text, terminals). */
export function acpOutput(e: EventRecord, v: Record<string, unknown>): Uint8Array | undefined {
  if (v.raw_output !== undefined && v.raw_output !== null) {
    if (typeof v.raw_output === "string") return utf8(v.raw_output);
    const out = rawValue(e.bytes, ["raw_output"]);
    return out ? out.slice() : utf8(JSON.stringify(v.raw_output));
  }
  if (!Array.isArray(v.content) || v.content.length === 0) return undefined;
  const out = rawValue(e.bytes, ["content"]);
  return out ? out.slice() : utf8(JSON.stringify(v.content));
}

/**
 * The readable reasoning of an LLM message or action: `reasoning_content`, else the text of its
 * Anthropic thinking blocks, else its Responses reasoning item's summary and content.
 */
export function reasoningOf(v: Record<string, unknown>): string | undefined {
  const own = str(v.reasoning_content);
  if (own) return own;
  const blocks = Array.isArray(v.thinking_blocks) ? v.thinking_blocks.filter(isRecord) : [];
  const thinking = blocks.map((b) => str(b.thinking)).filter((t): t is string => t !== undefined && t !== "");
  if (thinking.length > 0) return thinking.join("\n\n");
  const item = isRecord(v.responses_reasoning_item) ? v.responses_reasoning_item : undefined;
  if (!item) return undefined;
  const texts = [item.summary, item.content]
    .flatMap((list) => (Array.isArray(list) ? list : []))
    .map(str)
    .filter((t): t is string => t !== undefined && t !== "");
  return texts.length > 0 ? texts.join("\n\n") : undefined;
}

/** A tool observation's outcome from its error flags, timeout and exit code. */
export function observationOutcome(obs: Record<string, unknown>, exitCode: number | undefined): ToolOutcome {
  // An error the tool reports (a rejected command, a failed edit) first: its exit code is the
  // default -1. A command the terminal stopped waiting for has exit code -1 without an error.
  if (obs.is_error === true || obs.error === true || (typeof obs.error === "string" && obs.error !== "")) return "FAILED";
  if (obs.timeout === true || exitCode === -1) return "UNKNOWN";
  if (exitCode !== undefined) return exitCode === 0 ? "SUCCEEDED" : "FAILED";
  // Earlier SDKs kept the error as a string that Python tests for truth: "" is no error.
  if (obs.is_error === false || obs.error === false || obs.error === null || obs.error === "") return "SUCCEEDED";
  return "UNKNOWN";
}

/** Text parsed as JSON when it is JSON, else the text itself. */
export function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * What an `execute_tool` span says about its call: the tool, the call id, the arguments and the
 * result, from the GenAI conventions or from where an instrumentation writes them instead:
 * - Google ADK: `gcp.vertex.agent.tool_call_args` / `gcp.vertex.agent.tool_response`.
 * - OpenLLMetry's LangChain instrumentation (opentelemetry-instrumentation-langchain, which
 *   AGNTCY's observe SDK installs for LangGraph agents) sets no `gen_ai.tool.call.id`, and writes
 *   `gen_ai.tool.call.arguments` as the JSON of LangChain's tool-start callback,
 *   `{"input_str", "tags", "metadata", "inputs", "kwargs"}` (the tool's input in `inputs`, or
 *   `input_str` for a string input; the model's call id in `kwargs.tool_call_id`), and
 *   `gen_ai.tool.call.result` as `{"output", "kwargs"}`, the output being the serialised
 *   ToolMessage (`{"lc": 1, "type": "constructor", "id": [..., "ToolMessage"], "kwargs":
 *   {content, tool_call_id, status}}`). A ToolMessage of status "error" is a tool error LangChain
 *   handled and returned to the model: the call failed, although the span ended normally.
 */
import { ADK_TOOL_ARGS, ADK_TOOL_RESPONSE } from "./spans";
import { jsonAttribute } from "./values";
import type { OtlpSpan } from "./otlp-records";
import { isRecord, str } from "../shared/text";

export interface ToolSpanCall {
  toolName: string;
  callId?: string;
  /** The arguments as captured (undefined: not captured). */
  args: unknown;
  /** The result as captured (undefined: none). */
  result: unknown;
  /** The result itself says the call failed. */
  resultFailed: boolean;
}

function parsed(value: unknown): unknown {
  const read = jsonAttribute(value);
  return read.ok ? read.value : undefined;
}

/** LangChain's tool-start payload: the tool's input and the model's call id, if it is one. */
function langChainArguments(args: unknown): { input: unknown; callId?: string } | undefined {
  const value = parsed(args);
  if (!isRecord(value) || !("input_str" in value) || !isRecord(value.kwargs)) return undefined;
  const callId = str(value.kwargs.tool_call_id);
  let input: unknown = value.inputs;
  if (!isRecord(input)) {
    const text = value.input_str;
    const json = typeof text === "string" ? jsonAttribute(text) : undefined;
    input = json?.ok ? json.value : text;
  }
  return { input, ...(callId ? { callId } : {}) };
}

/** LangChain's tool-end payload: the ToolMessage's content, status and call id, if it is one. */
function langChainResult(result: unknown): { content: unknown; failed: boolean; callId?: string } | undefined {
  const value = parsed(result);
  if (!isRecord(value) || !("output" in value) || !isRecord(value.kwargs)) return undefined;
  const output = value.output;
  const id = isRecord(output) && Array.isArray(output.id) ? output.id : [];
  if (!isRecord(output) || id.at(-1) !== "ToolMessage" || !isRecord(output.kwargs)) {
    return { content: output, failed: false };
  }
  const callId = str(output.kwargs.tool_call_id);
  return { content: output.kwargs.content, failed: output.kwargs.status === "error", ...(callId ? { callId } : {}) };
}

/** The call an `execute_tool` span records. */
export function toolSpanCall(s: OtlpSpan): ToolSpanCall {
  const toolName = str(s.attrs.get("gen_ai.tool.name")) ?? (s.name.replace(/^execute_tool\s*/, "") || "tool");
  const rawArgs = s.attrs.get("gen_ai.tool.call.arguments") ?? s.attrs.get(ADK_TOOL_ARGS);
  const rawResult = s.attrs.get("gen_ai.tool.call.result") ?? s.attrs.get(ADK_TOOL_RESPONSE);
  const lcArgs = langChainArguments(rawArgs);
  const lcResult = langChainResult(rawResult);
  const callId = str(s.attrs.get("gen_ai.tool.call.id")) ?? lcArgs?.callId ?? lcResult?.callId;
  return {
    toolName,
    ...(callId ? { callId } : {}),
    args: lcArgs ? lcArgs.input : rawArgs,
    result: lcResult ? lcResult.content : rawResult,
    resultFailed: lcResult?.failed ?? false,
  };
}

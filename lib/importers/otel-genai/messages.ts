/**
 * GenAI chat messages in the shapes OpenTelemetry instrumentations write, normalised to one form:
 * - current conventions: `gen_ai.input.messages` / `gen_ai.output.messages` /
 *   `gen_ai.system_instructions`, messages of typed `parts` (text, reasoning, tool_call,
 *   tool_call_response, compaction, ...);
 * - older conventions: span events `gen_ai.{system,user,assistant,tool}.message` and
 *   `gen_ai.choice`, or `gen_ai.content.prompt` / `gen_ai.content.completion` events holding
 *   `gen_ai.prompt` / `gen_ai.completion` JSON, with OpenAI-style `{role, content, tool_calls}`;
 * - indexed span attributes `gen_ai.prompt.N.role` / `.content` (and `gen_ai.completion.N.*`).
 */
import { jsonAttribute } from "./values";
import { isRecord, str } from "../shared/text";

export type Part =
  | { type: "text" | "reasoning"; text: string }
  | { type: "tool_call"; id?: string; name: string; arguments: unknown }
  | { type: "tool_call_response"; id?: string; response: unknown }
  /** The conventions' CompactionPart: compacted conversation state, its summary when not opaque. */
  | { type: "compaction"; id?: string; text?: string }
  | { type: "other"; name: string };

export interface Message {
  role: string;
  parts: Part[];
}

/** Part types that carry no text (binary or by reference), skipped on purpose. */
export const IGNORED_PART_TYPES = new Set(["blob", "file", "uri", "image", "audio", "image_url", "input_image"]);

function partOf(p: unknown): Part | undefined {
  if (typeof p === "string") return { type: "text", text: p };
  if (!isRecord(p)) return undefined;
  const type = str(p.type) ?? "text";
  const text = str(p.content) ?? str(p.text);
  if ((type === "text" || type === "reasoning" || type === "thinking") && text !== undefined)
    return { type: type === "thinking" ? "reasoning" : type, text };
  if (type === "tool_call" && typeof p.name === "string")
    return { type, name: p.name, arguments: p.arguments, ...(str(p.id) ? { id: str(p.id) } : {}) };
  if (type === "tool_call_response") return { type, response: p.response ?? p.result, ...(str(p.id) ? { id: str(p.id) } : {}) };
  if (type === "compaction") return { type, ...(str(p.id) ? { id: str(p.id) } : {}), ...(text !== undefined ? { text } : {}) };
  return { type: "other", name: type };
}

/** OpenAI-style tool_calls: `[{id, function: {name, arguments}}]`. */
function toolCallParts(calls: unknown): Part[] {
  const list = typeof calls === "string" ? jsonAttribute(calls) : { ok: true as const, value: calls };
  if (!list.ok || !Array.isArray(list.value)) return [];
  const parts: Part[] = [];
  for (const c of list.value) {
    if (!isRecord(c)) continue;
    const fn = isRecord(c.function) ? c.function : c;
    if (typeof fn.name !== "string") continue;
    parts.push({ type: "tool_call", name: fn.name, arguments: fn.arguments, ...(str(c.id) ? { id: str(c.id) } : {}) });
  }
  return parts;
}

/** One message in either the parts form or the OpenAI form; undefined when it is neither. */
export function messageOf(m: unknown, defaultRole?: string): Message | undefined {
  if (!isRecord(m)) return undefined;
  const role = str(m.role) ?? defaultRole;
  if (role === undefined) return undefined;
  if (Array.isArray(m.parts)) return { role, parts: m.parts.map(partOf).filter((p): p is Part => p !== undefined) };
  const parts: Part[] = [];
  const toolCallId = str(m.tool_call_id) ?? str(m.id);
  if (role === "tool" && m.content !== undefined) {
    parts.push({ type: "tool_call_response", response: m.content, ...(toolCallId ? { id: toolCallId } : {}) });
  } else if (typeof m.content === "string") {
    parts.push({ type: "text", text: m.content });
  } else if (Array.isArray(m.content)) {
    for (const c of m.content) {
      const part = partOf(c);
      if (part) parts.push(part);
    }
  }
  parts.push(...toolCallParts(m.tool_calls));
  return { role, parts };
}

/** A list of messages from an attribute value (JSON string or structured). */
export function messagesOf(value: unknown): { messages: Message[] } | { error: string } {
  const parsed = jsonAttribute(value);
  if (!parsed.ok) return { error: `not JSON (${parsed.error})` };
  if (!Array.isArray(parsed.value)) return { error: "not a list of messages" };
  const messages: Message[] = [];
  for (const m of parsed.value) {
    const message = messageOf(m);
    if (!message) return { error: "a message without a role" };
    messages.push(message);
  }
  return { messages };
}

/** `gen_ai.system_instructions`: a list of parts (or a plain string), as one system message. */
export function systemInstructionsOf(value: unknown): Message | undefined {
  if (typeof value === "string") {
    const parsed = jsonAttribute(value);
    if (parsed.ok && Array.isArray(parsed.value))
      return { role: "system", parts: parsed.value.map(partOf).filter((p): p is Part => p !== undefined) };
    return { role: "system", parts: [{ type: "text", text: value }] };
  }
  if (Array.isArray(value)) return { role: "system", parts: value.map(partOf).filter((p): p is Part => p !== undefined) };
  return undefined;
}

const EVENT_ROLES: Record<string, string> = {
  "gen_ai.system.message": "system",
  "gen_ai.user.message": "user",
  "gen_ai.assistant.message": "assistant",
  "gen_ai.tool.message": "tool",
};

/**
 * Messages one span event holds under the older conventions, and whether they are output;
 * undefined for events that are not message events.
 */
export function eventMessages(name: string, attrs: Map<string, unknown>): { output: boolean; messages: Message[] } | undefined {
  const content = attrs.get("gen_ai.event.content");
  const body = content !== undefined ? jsonAttribute(content) : undefined;
  const fields: Record<string, unknown> = body?.ok && isRecord(body.value) ? body.value : Object.fromEntries(attrs);
  const role = EVENT_ROLES[name];
  if (role !== undefined) {
    const message = messageOf({ ...fields, role: str(fields.role) ?? role });
    return { output: false, messages: message ? [message] : [] };
  }
  if (name === "gen_ai.choice") {
    const inner = fields.message !== undefined ? jsonAttribute(fields.message) : undefined;
    const raw = inner?.ok && isRecord(inner.value) ? inner.value : fields;
    const message = messageOf(raw, "assistant");
    return { output: true, messages: message ? [message] : [] };
  }
  if (name === "gen_ai.content.prompt" || name === "gen_ai.content.completion") {
    const output = name === "gen_ai.content.completion";
    const listed = messagesOf(attrs.get(output ? "gen_ai.completion" : "gen_ai.prompt"));
    return { output, messages: "messages" in listed ? listed.messages : [] };
  }
  return undefined;
}

/**
 * Indexed attributes (OpenLLMetry's form): `gen_ai.prompt.N.role/content/tool_call_id` and
 * `gen_ai.prompt.N.tool_calls.M.id/name/arguments`, likewise under `gen_ai.completion`.
 */
export function indexedMessages(attrs: Map<string, unknown>, prefix: "gen_ai.prompt" | "gen_ai.completion"): Message[] {
  type Entry = { role?: string; content?: string; toolCallId?: string; calls: Map<number, Record<string, string>> };
  const byIndex = new Map<number, Entry>();
  const escaped = prefix.replace(".", "\\.");
  const plain = new RegExp(`^${escaped}\\.(\\d+)\\.(role|content|tool_call_id)$`);
  const call = new RegExp(`^${escaped}\\.(\\d+)\\.tool_calls\\.(\\d+)\\.(id|name|arguments)$`);
  const entry = (index: number) => {
    let e = byIndex.get(index);
    if (!e) byIndex.set(index, (e = { calls: new Map() }));
    return e;
  };
  for (const [key, value] of attrs) {
    if (typeof value !== "string") continue;
    const m = plain.exec(key);
    if (m) {
      const e = entry(Number(m[1]));
      if (m[2] === "tool_call_id") e.toolCallId = value;
      else e[m[2] as "role" | "content"] = value;
      continue;
    }
    const c = call.exec(key);
    if (c) {
      const calls = entry(Number(c[1])).calls;
      const fields = calls.get(Number(c[2])) ?? {};
      fields[c[3]!] = value;
      calls.set(Number(c[2]), fields);
    }
  }
  const out: Message[] = [];
  for (const [, e] of [...byIndex.entries()].sort(([a], [b]) => a - b)) {
    const role = e.role ?? (prefix === "gen_ai.prompt" ? "user" : "assistant");
    const parts: Part[] = [];
    if (e.content !== undefined) {
      parts.push(
        role === "tool"
          ? { type: "tool_call_response", response: e.content, ...(e.toolCallId ? { id: e.toolCallId } : {}) }
          : { type: "text", text: e.content },
      );
    }
    for (const [, f] of [...e.calls.entries()].sort(([a], [b]) => a - b)) {
      if (f.name === undefined) continue;
      parts.push({ type: "tool_call", name: f.name, arguments: f.arguments, ...(f.id ? { id: f.id } : {}) });
    }
    if (parts.length > 0) out.push({ role, parts });
  }
  return out;
}

/** A stable key for recognising the same message repeated in a later request's history. */
export function messageKey(m: Message): string {
  return JSON.stringify([m.role, m.parts]);
}

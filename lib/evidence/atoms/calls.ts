/**
 * Finding tool calls in a span body: the JSON shapes of the common runtimes (Anthropic tool_use
 * blocks, OpenAI/Codex function_call items with JSON-encoded arguments, Codex local_shell_call,
 * OpenHands action events, SWE-agent steps, OpenTelemetry GenAI attributes, MCP tools/call),
 * Python-style call syntax (`write_file(path="/etc/app/conf.yaml", mode="overwrite")`), and
 * argument values a runtime reported as hints, located in the body by their bytes.
 */
import { stringToBinary } from "./bytes";
import { field, parseJson, unescapeJson, type JNode, type JObj, type JStr, type JsonDoc } from "./json";
import { TextBuilder, type Text } from "./text";

export interface ArgSite {
  name: string;
  /** The value as a JSON node of `doc`. */
  doc?: JsonDoc;
  node?: JNode;
  /** A string value located outside JSON (call syntax, hint search). */
  text?: Text;
  /** Raw range of the value for its TOOL_ARG atom (quotes excluded for strings). */
  raw?: { t: Text; a: number; b: number };
  /** An argv array located element by element (hint search). */
  argv?: Text[];
}

export interface CallSite {
  name: string;
  nameText: Text | null;
  args: ArgSite[];
  /** JSON nodes this call accounts for (generic scanning skips them). */
  handled: JNode[];
  /** A bare command line (SWE-agent action): interpret with the agent command vocabulary. */
  commandLine?: Text;
}

const NAME_KEYS = ["name", "tool_name", "toolName", "tool", "function_name", "recipient_name"];
const ARG_KEYS = ["input", "arguments", "args", "tool_input", "toolInput", "params", "parameters", "arguments_json"];
const NOT_CALL_TYPES = new Set([
  "tool_result",
  "function_call_output",
  "custom_tool_call_output",
  "text",
  "message",
  "reasoning",
  "tool_definition",
]);

/** Every tool call in a parsed body, outermost first; a call's own subtree is not searched again. */
export function findJsonCalls(doc: JsonDoc): CallSite[] {
  const out: CallSite[] = [];
  const visit = (n: JNode, depth: number): void => {
    if (depth > 64) return;
    if (n.k === "o") {
      const call = callOf(doc, n);
      if (call) {
        out.push(call);
        return;
      }
      for (const v of n.vals) visit(v, depth + 1);
    } else if (n.k === "a") {
      const attrs = otlpAttributes(doc, n);
      if (attrs) {
        const call = callOfOtlp(doc, attrs);
        if (call) {
          out.push(call);
          return;
        }
      }
      for (const v of n.items) visit(v, depth + 1);
    }
  };
  for (const r of doc.roots) visit(r, 0);
  return out;
}

function str(doc: JsonDoc, n: JNode | undefined): string | null {
  return n && n.k === "s" ? doc.str(n) : null;
}

function callOf(doc: JsonDoc, o: JObj): CallSite | null {
  const type = str(doc, field(o, "type"));
  if (type !== null && NOT_CALL_TYPES.has(type)) return null;

  if (type === "local_shell_call") {
    const action = field(o, "action");
    return action ? site(doc, "local_shell", null, action) : null;
  }
  const otelName = field(o, "gen_ai.tool.name");
  if (otelName && otelName.k === "s") {
    return site(doc, doc.str(otelName), otelName, field(o, "gen_ai.tool.call.arguments") ?? null);
  }
  for (const nk of NAME_KEYS) {
    const nameNode = field(o, nk);
    if (nameNode?.k !== "s") continue;
    for (const ak of ARG_KEYS) {
      const args = field(o, ak);
      if (!args) continue;
      if (isSchema(doc, o, args)) return null; // a tool definition, not a call
      return site(doc, doc.str(nameNode), nameNode, args);
    }
    // Anthropic/OpenAI call with no arguments at all.
    if (type === "tool_use" || type === "function_call" || type === "custom_tool_call" || type === "server_tool_use") {
      return site(doc, doc.str(nameNode), nameNode, null);
    }
  }
  // OpenHands action event: {"action": "run", "args": {...}}.
  const action = field(o, "action");
  const args = field(o, "args");
  if (action && action.k === "s" && args && args.k === "o" && !field(o, "observation")) {
    return site(doc, doc.str(action), action, args);
  }
  // SWE-agent trajectory step: {"action": "edit 12:14\n...", "thought": ..., "observation": ...}.
  if (action && action.k === "s" && (field(o, "thought") || field(o, "response")) && !args) {
    const t = doc.text(action);
    return {
      name: firstWord(t.s),
      nameText: null,
      args: [{ name: "command", doc, node: action }],
      handled: [action],
      commandLine: t,
    };
  }
  return null;
}

function isSchema(doc: JsonDoc, o: JObj, args: JNode): boolean {
  if (field(o, "input_schema") || field(o, "inputSchema")) return true;
  if (args.k !== "o") return false;
  const t = field(args, "type");
  return !!field(args, "properties") || (t !== undefined && str(doc, t) === "object" && !!field(o, "description"));
}

/** The call's name and arguments are accounted for; its other fields (ids, timestamps) are still scanned. */
function site(doc: JsonDoc, name: string, nameNode: JNode | null, argsNode: JNode | null): CallSite {
  const s: CallSite = {
    name,
    nameText: nameNode && nameNode.k === "s" ? doc.text(nameNode) : null,
    args: [],
    handled: [nameNode, argsNode].filter((n): n is JNode => n !== null),
  };
  if (argsNode) s.args = argsOf(doc, argsNode);
  return s;
}

/** Arguments of a call: an object's fields, a JSON-encoded object string, or one raw input. */
export function argsOf(doc: JsonDoc, n: JNode): ArgSite[] {
  if (n.k === "o") return n.keys.map((name, i) => ({ name, doc, node: n.vals[i]! }));
  if (n.k === "s") {
    const t = doc.text(n);
    if (/^\s*\{/.test(t.s)) {
      const inner = parseJson(t);
      const root = inner?.roots[0];
      if (inner && inner.roots.length === 1 && root && root.k === "o") return argsOf(inner, root);
    }
    return [{ name: "input", doc, node: n }];
  }
  return [{ name: "input", doc, node: n }];
}

/** OTLP JSON attribute lists: [{"key": "...", "value": {"stringValue": "..."}}, ...]. */
function otlpAttributes(doc: JsonDoc, a: JNode & { k: "a" }): Map<string, JNode> | null {
  if (a.items.length === 0) return null;
  const first = a.items[0]!;
  if (first.k !== "o" || !field(first, "key") || !field(first, "value")) return null;
  const out = new Map<string, JNode>();
  for (const it of a.items) {
    if (it.k !== "o") continue;
    const key = str(doc, field(it, "key"));
    const value = field(it, "value");
    if (key === null || !value || value.k !== "o") continue;
    const inner = value.vals[0];
    if (inner) out.set(key, inner);
  }
  return out;
}

function callOfOtlp(doc: JsonDoc, attrs: Map<string, JNode>): CallSite | null {
  const name = attrs.get("gen_ai.tool.name");
  if (name?.k !== "s") return null;
  const args = attrs.get("gen_ai.tool.call.arguments");
  return {
    name: doc.str(name),
    nameText: doc.text(name),
    args: args ? argsOf(doc, args) : [],
    handled: args ? [name, args] : [name],
  };
}

function firstWord(s: string): string {
  const m = /^\s*([^\s]+)/.exec(s);
  return m ? m[1]! : "";
}

const CALL_HEAD = /^\s*([A-Za-z_][\w.]*)\s*\(/;

/**
 * Python-style call syntax: name(key="value", key2=3, positional). Values: quoted strings (with
 * backslash escapes), numbers, True/False/None, bare words.
 */
export function parseCallSyntax(t: Text): CallSite | null {
  const s = t.s;
  const head = CALL_HEAD.exec(s);
  if (!head) return null;
  const nameStart = head.index + head[0].indexOf(head[1]!);
  const site: CallSite = { name: head[1]!, nameText: t.sub(nameStart, nameStart + head[1]!.length), args: [], handled: [] };
  let i = head[0].length;
  let positional = 0;
  for (;;) {
    while (i < s.length && /\s|,/.test(s[i]!)) i++;
    if (i >= s.length || s[i] === ")") break;
    const kw = /^([A-Za-z_]\w*)\s*=\s*/.exec(s.slice(i, i + 128));
    let name = `arg${positional}`;
    if (kw) {
      name = kw[1]!;
      i += kw[0].length;
    } else positional++;
    const q = s[i];
    if (q === '"' || q === "'") {
      const triple = s.startsWith(q.repeat(3), i);
      const open = triple ? 3 : 1;
      const close = findClose(s, i + open, triple ? q.repeat(3) : q);
      const text = unescapePython(t, i + open, close);
      site.args.push({ name, text, raw: { t, a: i + open, b: close } });
      i = close + open;
    } else {
      const m = /^[^,)\s]+/.exec(s.slice(i));
      if (!m) break;
      site.args.push({ name, raw: { t, a: i, b: i + m[0].length } });
      i += m[0].length;
    }
  }
  return site;
}

function findClose(s: string, from: number, q: string): number {
  let j = from;
  for (;;) {
    const k = s.indexOf(q, j);
    if (k < 0) return s.length;
    let bs = 0;
    while (s.charCodeAt(k - 1 - bs) === 0x5c) bs++;
    if ((bs & 1) === 0) return k;
    j = k + 1;
  }
}

const PY_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"', "0": "\0" };

function unescapePython(t: Text, a: number, b: number): Text {
  const s = t.s;
  if (s.indexOf("\\", a) < 0 || s.indexOf("\\", a) >= b) return t.sub(a, b);
  const out = new TextBuilder(t);
  let run = a;
  let i = s.indexOf("\\", a);
  while (i >= 0 && i < b - 1) {
    out.copy(run, i);
    const e = s[i + 1]!;
    out.unit(PY_ESCAPES[e] ?? e, i, i + 2);
    run = i + 2;
    i = s.indexOf("\\", run);
  }
  out.copy(run, b);
  out.skip(b);
  return out.build();
}

/**
 * Locates hint argument values (parsed JSON the runtime reported beside the body) in the body:
 * each string value by its JSON-escaped bytes, else by its raw bytes. Values that are not in
 * the body still guide classification, but yield no atom.
 */
export function locateHintArgs(
  input: unknown,
  t: Text,
): { located: ArgSite[]; unlocated: Array<{ name: string; value: unknown }> } {
  const located: ArgSite[] = [];
  const unlocated: Array<{ name: string; value: unknown }> = [];
  if (typeof input === "string") {
    // A freeform input (Codex's apply_patch): the body usually is that input.
    const found = locateString(input, t);
    if (found) located.push({ name: "input", text: found, raw: { t: found, a: 0, b: found.s.length } });
    else unlocated.push({ name: "input", value: input });
    return { located, unlocated };
  }
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    if (input !== undefined) unlocated.push({ name: "input", value: input });
    return { located, unlocated };
  }
  for (const [name, value] of Object.entries(input as Record<string, unknown>)) {
    if (typeof value === "string") {
      const found = locateString(value, t);
      if (found) located.push({ name, text: found, raw: { t: found, a: 0, b: found.s.length } });
      else unlocated.push({ name, value });
    } else if (Array.isArray(value) && value.every((v) => typeof v === "string")) {
      // An argv array: locate each element, in order.
      const parts: Text[] = [];
      let from = 0;
      for (const v of value as string[]) {
        const found = locateString(v, t, from);
        if (!found) break;
        parts.push(found);
        from = found.byteAt(found.s.length) - t.byteAt(0);
      }
      if (parts.length === value.length && parts.length > 0) located.push({ name, argv: parts });
      else unlocated.push({ name, value });
    } else unlocated.push({ name, value });
  }
  return { located, unlocated };
}

function locateString(value: string, t: Text, from = 0): Text | null {
  if (value === "") return null;
  const raw = stringToBinary(value);
  const escaped = stringToBinary(JSON.stringify(value).slice(1, -1));
  const s = t.s;
  let i = s.indexOf(escaped, from);
  if (i >= 0) return escaped === raw ? t.sub(i, i + raw.length) : unescapeJson(t, i, i + escaped.length);
  i = s.indexOf(raw, from);
  return i >= 0 ? t.sub(i, i + raw.length) : null;
}

export function isStringNode(n: JNode | undefined): n is JStr {
  return n !== undefined && n.k === "s";
}

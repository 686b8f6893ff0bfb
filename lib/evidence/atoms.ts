/**
 * Evidence atoms of a span (docs/design.md, "Vocabulary"): the verifiable facts in its body bytes,
 * each with its kind, exact text, normalised value and byte range.
 *
 * `new TextDecoder().decode(body.subarray(a.byteStart, a.byteEnd)) === a.text` holds for every
 * atom, whatever the body: bytes that are not valid UTF-8 never shift a range (the body is read
 * one byte per character), and a range whose bytes are not valid UTF-8 yields no atom.
 *
 * How a body is read:
 * - JSON (or JSON Lines): tool calls are found by shape (see atoms/calls.ts) and interpreted with
 *   tool knowledge; every other string value is scanned, JSON inside strings included.
 * - A tool call that is not JSON: Python-style call syntax, or the runtime's hints (tool name and
 *   arguments, located in the body by their bytes), or a bare command line (SWE-agent, shell).
 * - Anything else: scanned as prose, where negations scope over what they deny.
 * Tool calls are interpreted only in TOOL_CALL and MESSAGE spans: a result or a summary that
 * quotes a call is evidence about the call, not the call.
 *
 * Limits: the first MAX_SCAN_BYTES (32 MiB) of a body are scanned completely, with no cap on the
 * number of atoms; bytes beyond are not scanned (classification says so: "scan.truncated").
 * Shapes have sizes: a QUOTED string is at most 400 characters on one line (longer quotes are
 * scanned for the atoms inside them, but are not themselves an atom), a shell word taken as a
 * path at most 4096 bytes, a prompt-line COMMAND at most 4000 characters, and a passive negation
 * reaches at most 2000 characters back.
 * Without `homeDir`, "~" is DEFAULT_HOME_DIR ("/home/user"); without `cwd` (and no "cwd" field in
 * a JSON body), relative paths stay relative.
 */
import { isAsciiBytes, toBinaryString } from "./atoms/bytes";
import { findJsonCalls, locateHintArgs, parseCallSyntax, argsOf, type CallSite } from "./atoms/calls";
import { interpretCall, type CallEnv } from "./atoms/interpret";
import { field, parseJson, type JNode, type JsonDoc } from "./atoms/json";
import { DEFAULT_HOME_DIR, normalizePath } from "./atoms/paths";
import { scanText, type ScanContext } from "./atoms/scan";
import { AtomSink, finalizeAtoms } from "./atoms/sink";
import { Text } from "./atoms/text";
import { walkJson, walkJsonStream } from "./atoms/walk";
import { stringToBinary } from "./atoms/bytes";
import { toolKnowledge } from "./tools";
import type { Atom, SpanInput } from "./types";

/** Bodies are scanned up to this many bytes; beyond it nothing is extracted. */
export const MAX_SCAN_BYTES = 32 * 1024 * 1024;

const utf8 = new TextDecoder("utf-8");
const NOTHING: ReadonlySet<JNode> = new Set();

export function extractAtoms(input: SpanInput): Atom[] {
  const body = input.body;
  const scanned = body.length > MAX_SCAN_BYTES ? body.subarray(0, MAX_SCAN_BYTES) : body;
  const ascii = isAsciiBytes(scanned);
  // For ASCII the UTF-8 decoding is the byte-per-character string, and decodes twice as fast.
  const rootStr = ascii ? utf8.decode(scanned) : toBinaryString(scanned);
  const sink = new AtomSink(body, rootStr, ascii);
  const root = Text.contiguous(rootStr, 0);
  const ctx: ScanContext = { cwd: input.cwd, home: input.homeDir ?? DEFAULT_HOME_DIR };
  const env: CallEnv = { sink, ctx, input, root };
  const callsAllowed = input.kind === "TOOL_CALL" || input.kind === "MESSAGE";

  const json = looksLikeJson(rootStr);
  if (json && !callsAllowed && walkJsonStream(root, { sink, ctx, handled: NOTHING }, "prose")) {
    // A result or summary in JSON: no calls to find, so no tree to build.
    return finalizeAtoms(sink.atoms);
  }
  const doc = json ? parseJson(root) : null;
  if (doc) {
    if (ctx.cwd === undefined) ctx.cwd = cwdOf(doc, ctx);
    const handled = new Set<JNode>();
    if (callsAllowed) {
      let calls = findJsonCalls(doc);
      // With the tool's name reported, a body that is not an envelope naming that tool is the
      // tool's arguments (an argument called "name" does not make it another call).
      if (input.kind === "TOOL_CALL" && input.toolName && !calls.some((c) => c.name === input.toolName)) {
        calls = hintedJsonCall(doc, input.toolName, root);
      }
      for (const call of calls) {
        interpretCall(call, env);
        for (const n of call.handled) handled.add(n);
      }
    }
    for (const r of doc.roots) walkJson(doc, r, { sink, ctx, handled }, "prose", null);
  } else if (input.kind === "TOOL_CALL") {
    extractNonJsonCall(input, env);
  } else {
    scanText(root, sink, ctx, "prose");
  }
  return finalizeAtoms(sink.atoms);
}

function looksLikeJson(s: string): boolean {
  const m = /^\s*([{[])/.exec(s.slice(0, 64));
  return m !== null;
}

/** A JSON body's own record of its working directory (Claude Code lines carry "cwd"). */
function cwdOf(doc: JsonDoc, ctx: ScanContext): string | undefined {
  const r = doc.roots[0];
  if (r?.k !== "o") return undefined;
  const c = field(r, "cwd") ?? field(r, "workdir");
  if (c?.k !== "s") return undefined;
  const v = doc.str(c);
  return v.startsWith("/") ? normalizePath(v, undefined, ctx.home) : undefined;
}

/** A JSON body without a call shape, with the tool name as a hint: the body is the arguments. */
function hintedJsonCall(doc: JsonDoc, toolName: string, root: Text): CallSite[] {
  const r = doc.roots[0];
  if (!r) return [];
  return [{ name: toolName, nameText: locateName(toolName, root, true), args: argsOf(doc, r), handled: [r] }];
}

/**
 * The tool name's bytes in the body, if it is there as a name: a JSON string value of its own
 * (`"Bash"`) in a JSON body, a whole word otherwise. "Bash" inside a command is not the name.
 */
function locateName(name: string, root: Text, json = false): Text | null {
  const bin = stringToBinary(name);
  if (json) {
    const q = root.s.indexOf(`"${bin}"`);
    return q < 0 ? null : root.sub(q + 1, q + 1 + bin.length);
  }
  const i = root.s.indexOf(bin);
  if (i < 0) return null;
  // Only a whole word: "Write" inside "WriteFile" is not the name.
  const before = root.s.charCodeAt(i - 1);
  const after = root.s.charCodeAt(i + bin.length);
  const word = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  if (word(before) || word(after)) return null;
  return root.sub(i, i + bin.length);
}

function extractNonJsonCall(input: SpanInput, env: CallEnv): void {
  const { sink, ctx, root } = env;
  const call = parseCallSyntax(root);
  if (call) {
    interpretCall(call, env);
    return;
  }
  if (input.toolName !== undefined) {
    const k = toolKnowledge(input.toolName, input.toolAnnotations);
    const { located, unlocated } = locateHintArgs(input.toolInput, root);
    const isCommand = (a: { name: string }) => (k.commandArgs ?? []).includes(a.name);
    if (k.kind === "shell" && !located.some(isCommand) && !unlocated.some(isCommand)) {
      // The body is the command itself (a runtime that stores the command line as the call).
      const name = (k.commandArgs ?? ["command"])[0]!;
      interpretCall({ name: input.toolName, nameText: null, args: [{ name, text: root }], handled: [] }, env);
      return;
    }
    interpretCall({ name: input.toolName, nameText: locateName(input.toolName, root), args: located, handled: [] }, env);
    const skip = located
      .flatMap((a) => (a.text ? [a.text] : (a.argv ?? [])))
      .map((t) => [t.byteAt(0), t.byteAt(t.s.length)] as [number, number])
      .sort((x, y) => x[0] - y[0]);
    scanText(root, sink, ctx, "prose", mergeRanges(skip));
    return;
  }
  // No name: a bare command line (SWE-agent actions, plain shell).
  interpretCall({ name: "", nameText: null, args: [], handled: [], commandLine: root }, env);
}

function mergeRanges(rs: Array<[number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const r of rs) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

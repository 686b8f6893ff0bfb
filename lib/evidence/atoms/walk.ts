/**
 * Generic extraction over a JSON body: every string value is scanned (JSON-encoded JSON inside a
 * string is parsed and walked in turn), values under path-like keys are whole paths (even with
 * spaces), and a few numeric fields are atoms by their key ("timestamp": 1700000000 is a time,
 * "duration_ms": 200 is "200 ms", "exit_code": 1 is an exit code).
 */
import { unescapeJson, type JNode, type JsonDoc } from "./json";
import { type JsonVisitor, visitJson } from "./json-stream";
import { normalizeExitCode, canonicalValue } from "./numbers";
import { looksLikePath, normalizePath } from "./paths";
import { scanText, type ScanContext, type ScanMode } from "./scan";
import { valueOf, type AtomSink } from "./sink";
import type { Text } from "./text";
import { normalizeEpoch, normalizeIso } from "./timestamps";

const WHOLE_UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export interface WalkEnv {
  sink: AtomSink;
  ctx: ScanContext;
  /** Nodes already accounted for (a tool call's name and arguments). */
  handled: ReadonlySet<JNode>;
}

const MAX_NESTING = 4;
const PATH_KEY =
  /(?:^|[_.-])(?:path|paths|file|filename|filepath|file_path|dir|directory|cwd|workdir|folder|notebook_path|target_file)$|(?:Path|File|Dir|Cwd)$/;
/** File contents, not claims: their negations scope over nothing. */
const DATA_KEY = /^(?:file_text|new_str|old_str|new_string|old_string|new_source|patch|diff|source|code|file_content|contents)$/;
const TIME_KEY =
  /(?:^|[_.])(?:timestamp|ts|time|created|updated|started|ended|finished|modified|date)(?:_?at|_unix|_s|_ms)?$|(?:At|Time|Timestamp|Date)$/;
const NANO_KEY = /UnixNano$|_unix_nano$|_ns$/;
const MS_KEY = /(?:^|[_.])(?:duration|elapsed|latency|took|wall_time|time|timeout)_?ms$|(?:Ms|Millis)$/;
const SEC_KEY = /(?:^|[_.])(?:duration|elapsed|latency|wall_time|took)(?:_seconds|_secs|_s)?$|_seconds$/;
const EXIT_KEY = /^(?:exit_?code|exitCode|returncode|return_code|exit_status|exitStatus)$/;
const BYTES_KEY = /(?:^|_)(?:size|bytes|size_bytes|length_bytes|byte_length)$|(?:Bytes|Size)$/;

/**
 * Walks `node`. `mode` is how strings are read: "prose" for messages and results, "data" for
 * file contents. The key of the enclosing field can make a string a path or data.
 */
export function walkJson(doc: JsonDoc, node: JNode, env: WalkEnv, mode: ScanMode, key: string | null, depth = 0): void {
  if (env.handled.has(node)) return;
  switch (node.k) {
    case "o":
      for (let i = 0; i < node.keys.length; i++) walkJson(doc, node.vals[i]!, env, mode, node.keys[i]!, depth);
      return;
    case "a":
      for (const it of node.items) walkJson(doc, it, env, mode, key, depth);
      return;
    case "s":
      scanStringAt(doc.t, node.a, node.b, node.esc, env, mode, key, depth, node);
      return;
    case "n":
      if (key !== null) labelledNumber(doc.t, node.a, node.b, env, key);
      return;
    default:
      return;
  }
}

/**
 * The same walk without building a tree, for bodies that need no structure (tool results):
 * returns false when `t` is not JSON, after removing whatever atoms it had added.
 */
export function walkJsonStream(t: Text, env: WalkEnv, mode: ScanMode, depth = 0): boolean {
  const mark = env.sink.atoms.length;
  const ok = visitJson(t, new StreamWalker(t, env, mode, depth));
  if (!ok) env.sink.atoms.length = mark;
  return ok;
}

class StreamWalker implements JsonVisitor {
  constructor(
    private readonly t: Text,
    private readonly env: WalkEnv,
    private readonly mode: ScanMode,
    private readonly depth: number,
  ) {}

  string(a: number, b: number, esc: boolean, key: string | null): void {
    scanStringAt(this.t, a, b, esc, this.env, this.mode, key, this.depth, null);
  }

  number(a: number, b: number, key: string | null): void {
    if (key !== null) labelledNumber(this.t, a, b, this.env, key);
  }
}

function scanStringAt(
  docT: Text,
  a: number,
  b: number,
  esc: boolean,
  env: WalkEnv,
  mode: ScanMode,
  key: string | null,
  depth: number,
  node: (JNode & { k: "s" }) | null,
): void {
  if (b - a < 2) return;
  const t = node ? undefined : esc ? unescapeJson(docT, a, b) : docT.sub(a, b);
  const text = t ?? (node!.esc ? (node!.unescaped ??= unescapeJson(docT, a, b)) : docT.sub(a, b));
  const s = text.s;
  if (key !== null) {
    const role = keyRole(key);
    if (role === PATH_ROLE && looksLikePath(s)) {
      const v = valueOf(s);
      if (v !== null) env.sink.add("PATH", text, 0, s.length, normalizePath(v, env.ctx.cwd, env.ctx.home));
      return;
    }
    if (role === NANO_ROLE && /^\d{19}$/.test(s)) {
      const n = normalizeEpoch(s.slice(0, 13));
      if (n !== null) env.sink.add("TIMESTAMP", text, 0, s.length, n);
      return;
    }
    if (role === DATA_ROLE) mode = "data";
  }
  const c0 = s.charCodeAt(0);
  if (depth < MAX_NESTING && (c0 === 0x7b || c0 === 0x5b) && walkJsonStream(text, env, mode, depth + 1)) return;
  // Whole values that are one atom (ids and times fill API responses): no scan needed.
  if (s.length === 36 && WHOLE_UUID.test(s)) {
    env.sink.add("IDENTIFIER", text, 0, 36, s.toLowerCase(), undefined, s);
    return;
  }
  if (s.length === 24 && c0 >= 0x31 && c0 <= 0x32) {
    const n = normalizeIso(s);
    if (n !== null) {
      env.sink.add("TIMESTAMP", text, 0, 24, n, undefined, s);
      return;
    }
  }
  scanText(text, env.sink, env.ctx, mode);
}

// What a key says about its value; computed once per distinct key.
const PATH_ROLE = 1;
const NANO_ROLE = 2;
const DATA_ROLE = 3;
const EXIT_ROLE = 4;
const MS_ROLE = 5;
const TIME_ROLE = 6;
const SEC_ROLE = 7;
const BYTES_ROLE = 8;
const roles = new Map<string, number>();

function keyRole(key: string): number {
  let r = roles.get(key);
  if (r === undefined) {
    r = PATH_KEY.test(key)
      ? PATH_ROLE
      : NANO_KEY.test(key)
        ? NANO_ROLE
        : DATA_KEY.test(key)
          ? DATA_ROLE
          : EXIT_KEY.test(key)
            ? EXIT_ROLE
            : MS_KEY.test(key)
              ? MS_ROLE
              : TIME_KEY.test(key)
                ? TIME_ROLE
                : SEC_KEY.test(key)
                  ? SEC_ROLE
                  : BYTES_KEY.test(key)
                    ? BYTES_ROLE
                    : 0;
    if (roles.size < 10_000) roles.set(key, r);
  }
  return r;
}

function labelledNumber(t: Text, a: number, b: number, env: WalkEnv, key: string): void {
  const role = keyRole(key);
  if (role < EXIT_ROLE && role !== NANO_ROLE) return;
  const raw = t.s.slice(a, b);
  if (!/^-?\d+(?:\.\d+)?$/.test(raw)) return;
  let kind: "TIMESTAMP" | "NUMBER" = "NUMBER";
  let normalized: string | null = null;
  switch (role) {
    case EXIT_ROLE:
      normalized = normalizeExitCode(raw);
      break;
    case NANO_ROLE:
      kind = "TIMESTAMP";
      normalized = /^\d{19}$/.test(raw) ? normalizeEpoch(raw.slice(0, 13)) : null;
      break;
    case MS_ROLE:
      normalized = `${canonicalValue(raw)} ms`;
      break;
    case TIME_ROLE:
      kind = "TIMESTAMP";
      normalized = /^\d{10}(?:\d{3})?(?:\.\d+)?$/.test(raw) ? normalizeEpoch(raw.split(".")[0]!) : null;
      break;
    case SEC_ROLE:
      normalized = `${canonicalValue(raw)} s`;
      break;
    case BYTES_ROLE:
      normalized = `${canonicalValue(raw)} B`;
      break;
  }
  if (normalized !== null) env.sink.add(kind, t, a, b, normalized, undefined, raw);
}

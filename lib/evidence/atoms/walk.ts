/**
 * Generic extraction over a JSON body: every string value is scanned (JSON-encoded JSON inside a
 * string is parsed and walked in turn), values under path-like keys are whole paths (even with
 * spaces), and a few numeric fields are atoms by their key ("timestamp": 1700000000 is a time,
 * "duration_ms": 200 is "200 ms", "exit_code": 1 is an exit code).
 */
import { parseJson, type JNode, type JsonDoc } from "./json";
import { normalizeExitCode, canonicalValue } from "./numbers";
import { looksLikePath, normalizePath } from "./paths";
import { scanText, type ScanContext, type ScanMode } from "./scan";
import { valueOf, type AtomSink } from "./sink";
import { normalizeEpoch } from "./timestamps";

export interface WalkEnv {
  sink: AtomSink;
  ctx: ScanContext;
  /** Nodes already accounted for (a tool call's name and arguments). */
  handled: ReadonlySet<JNode>;
}

const MAX_NESTING = 4;
const PATH_KEY = /(?:^|[_.-])(?:path|paths|file|filename|filepath|file_path|dir|directory|cwd|workdir|folder|notebook_path|target_file)$|(?:Path|File|Dir|Cwd)$/;
/** File contents, not claims: their negations scope over nothing. */
const DATA_KEY = /^(?:file_text|new_str|old_str|new_string|old_string|new_source|patch|diff|source|code|file_content|contents)$/;
const TIME_KEY = /(?:^|[_.])(?:timestamp|ts|time|created|updated|started|ended|finished|modified|date)(?:_?at|_unix|_s|_ms)?$|(?:At|Time|Timestamp|Date)$/;
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
      scanStringValue(doc, node, env, key !== null && DATA_KEY.test(key) ? "data" : mode, key, depth);
      return;
    case "n":
      if (key !== null) labelledNumber(doc, node, env, key);
      return;
    default:
      return;
  }
}

function scanStringValue(doc: JsonDoc, node: JNode & { k: "s" }, env: WalkEnv, mode: ScanMode, key: string | null, depth: number): void {
  if (node.b - node.a < 2) return;
  const t = doc.text(node);
  const s = t.s;
  if (key !== null && PATH_KEY.test(key) && looksLikePath(s)) {
    const v = valueOf(s);
    if (v !== null) env.sink.add("PATH", t, 0, s.length, normalizePath(v, env.ctx.cwd, env.ctx.home));
    return;
  }
  if (key !== null && NANO_KEY.test(key) && /^\d{19}$/.test(s)) {
    const n = normalizeEpoch(s.slice(0, 13));
    if (n !== null) env.sink.add("TIMESTAMP", t, 0, s.length, n);
    return;
  }
  if (depth < MAX_NESTING && (s.charCodeAt(0) === 0x7b || s.charCodeAt(0) === 0x5b)) {
    const inner = parseJson(t);
    if (inner) {
      for (const r of inner.roots) walkJson(inner, r, env, mode, null, depth + 1);
      return;
    }
  }
  scanText(t, env.sink, env.ctx, mode);
}

function labelledNumber(doc: JsonDoc, node: JNode, env: WalkEnv, key: string): void {
  const raw = doc.t.s.slice(node.a, node.b);
  if (!/^-?\d+(?:\.\d+)?$/.test(raw)) return;
  const add = (kind: "TIMESTAMP" | "NUMBER", normalized: string) => env.sink.add(kind, doc.t, node.a, node.b, normalized);
  if (EXIT_KEY.test(key)) add("NUMBER", normalizeExitCode(raw));
  else if (NANO_KEY.test(key) && /^\d{19}$/.test(raw)) {
    const n = normalizeEpoch(raw.slice(0, 13));
    if (n !== null) add("TIMESTAMP", n);
  } else if (MS_KEY.test(key)) add("NUMBER", `${canonicalValue(raw)} ms`);
  else if (TIME_KEY.test(key) && /^\d{10}(?:\d{3})?(?:\.\d+)?$/.test(raw)) {
    const n = normalizeEpoch(raw.split(".")[0]!);
    if (n !== null) add("TIMESTAMP", n);
  } else if (SEC_KEY.test(key)) add("NUMBER", `${canonicalValue(raw)} s`);
  else if (BYTES_KEY.test(key)) add("NUMBER", `${canonicalValue(raw)} B`);
}

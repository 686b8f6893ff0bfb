/**
 * Spans of @opentelemetry/instrumentation-fs: one span a call of Node's `fs`, named
 * `fs <functionName>` (`fs writeFile`, `fs unlinkSync`, the promise API's under the same names),
 * INTERNAL, with no attributes of its own unless the application's hooks add them (`file.path` or
 * `fs.path` read here). A call that changes the file system is a tool call `fs.<functionName>`; one
 * that only reads (`readFile`, `stat`, `access`, ...) is no action. `open` is read as no action too:
 * its flags are not recorded, and a write through the descriptor is its own `write` span.
 */
import { NODE_FS_MUTATIONS } from "@/lib/evidence/node-fs";
import type { OtlpSpan } from "./otlp-records";
import { str } from "../shared/text";

const MUTATING = new Set<string>(Object.values(NODE_FS_MUTATIONS).flat());

/** The fs call a span records, if it is one that changes the file system: its tool name and path. */
export function fsMutationOf(s: OtlpSpan): { toolName: string; path?: string } | undefined {
  const m = /^fs (\w+)$/.exec(s.name);
  if (!m || s.kind !== "INTERNAL") return undefined;
  const fn = m[1]!.replace(/Sync$/, "");
  if (!MUTATING.has(fn)) return undefined;
  const path = str(s.attrs.get("file.path")) ?? str(s.attrs.get("fs.path"));
  return { toolName: `fs.${m[1]}`, ...(path ? { path } : {}) };
}

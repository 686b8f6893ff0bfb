/**
 * Which files a patch touches: the apply_patch envelope of Codex CLI ("*** Add File: x",
 * "*** Update File: x", "*** Delete File: x", "*** Move to: y") and unified diffs
 * ("--- a/x" / "+++ b/x", "/dev/null" for created or deleted files).
 */
import type { SideEffectKind } from "./types";

export interface PatchTarget {
  /** Range of the path in the patch text. */
  a: number;
  b: number;
  effect: SideEffectKind;
}

const ENVELOPE = /^\*\*\* (Add File|Update File|Delete File|Move to): *(.+?)\s*$/gm;
const UNIFIED = /^(---|\+\+\+) (?:"([^"\n]+)"|([^\t\n]+?))(?:\t[^\n]*)?\r?$/gm;

export function patchTargets(s: string): PatchTarget[] {
  const out: PatchTarget[] = [];
  ENVELOPE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ENVELOPE.exec(s)) !== null) {
    const path = m[2]!;
    const a = m.index + m[0].indexOf(path, m[1]!.length + 4);
    const verb = m[1]!;
    out.push({
      a,
      b: a + path.length,
      effect: verb === "Delete File" ? "FILE_DELETE" : verb === "Move to" ? "FILE_MOVE" : "FILE_WRITE",
    });
  }
  if (out.length > 0) return out;

  // Unified diff: pair each "---" with the "+++" that follows it.
  UNIFIED.lastIndex = 0;
  let minus: { a: number; b: number; dev: boolean } | null = null;
  while ((m = UNIFIED.exec(s)) !== null) {
    const path = m[2] ?? m[3]!;
    const a = m.index + m[0].indexOf(path, 4);
    const dev = path === "/dev/null";
    if (m[1] === "---") {
      minus = { a, b: a + path.length, dev };
      continue;
    }
    if (minus === null) continue;
    if (dev && !minus.dev) out.push({ a: minus.a, b: minus.b, effect: "FILE_DELETE" });
    else if (!dev) out.push({ a, b: a + path.length, effect: "FILE_WRITE" });
    minus = null;
  }
  return out;
}

/** "a/src/x.ts" -> "src/x.ts": the conventional prefixes of git diffs. */
export function stripDiffPrefix(path: string): number {
  return /^[ab]\//.test(path) ? 2 : 0;
}

/**
 * Which local files an HTTP hook may have this server read. A hook names its transcript by path and
 * the server opens it: without a bound, a key that may write spans could make the server import
 * any file it can read. Only files under the runtimes' transcript folders are read.
 */
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, relative } from "node:path";
import { env } from "@/lib/core/env";
import { AppError } from "@/lib/core/errors";

/** CUSTODIAN_HOOK_TRANSCRIPT_ROOTS, else Claude Code's projects folder of the user the server runs as. */
export function hookTranscriptRoots(): string[] {
  const { CUSTODIAN_HOOK_TRANSCRIPT_ROOTS: roots, CLAUDE_CONFIG_DIR: claude } = env();
  if (roots)
    return roots
      .split(",")
      .map((r) => r.trim())
      .filter(Boolean);
  return [join(claude ?? join(homedir(), ".claude"), "projects")];
}

const within = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
};

/**
 * The transcript's real path (links resolved, so none leads out of the folders), or an AppError:
 * NOT_FOUND when this server cannot see the file (the hook runs on another machine, say), FORBIDDEN
 * when it lies outside the transcript folders or is not a JSON Lines transcript.
 */
export function allowedTranscriptPath(path: string, roots = hookTranscriptRoots()): string {
  if (!isAbsolute(path)) throw new AppError("VALIDATION_FAILED", `transcript_path must be absolute, not ${path}`);
  let real: string;
  try {
    real = realpathSync(path);
  } catch (error) {
    throw new AppError(
      "NOT_FOUND",
      `This server cannot read the transcript ${path} (${(error as NodeJS.ErrnoException).code ?? "unreadable"}): HTTP hooks need the server on the machine that writes the transcripts; use the process hooks otherwise`,
    );
  }
  const inside = roots.some((root) => {
    try {
      return within(realpathSync(root), real);
    } catch {
      return false; // a folder that does not exist holds nothing
    }
  });
  if (!inside || !real.endsWith(".jsonl"))
    throw new AppError(
      "FORBIDDEN",
      `The transcript ${path} is not a .jsonl file under the folders this server reads hook transcripts from (CUSTODIAN_HOOK_TRANSCRIPT_ROOTS: ${roots.join(", ")})`,
    );
  return real;
}

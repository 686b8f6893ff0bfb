/**
 * Tools of MCP servers, known by the verb of their name (docs/formats.md, "MCP tools"). A server's
 * tools come under its own names: `mcp__<server>__<tool>` (Claude Code), `<server>__<tool>` or the
 * bare tool name (Gemini CLI), `<server>.<tool>` (Codex's `mcp_tool_call` events). Nothing else is
 * known of them, but their names follow one habit: a verb (after the service's name, at most), then
 * what it acts on.
 *
 * - A write verb (create, update, delete, post, send, push, merge, comment...) acts through the
 *   server on the system behind it: a NETWORK_MUTATION (`tool.mcp-write`).
 * - A read verb (get, list, search, read, fetch, query...) only reads.
 * - Anything else (run, execute, resolve, click...), and a write verb on something local (a file,
 *   a directory, lines, a notebook: the server may be a file system or an editor, whose writes
 *   are file writes, not requests), stays unknown: not known to be read-only.
 */

export type McpVerb = "write" | "read";

const WRITE_VERBS = new Set(
  (
    "create add insert update edit modify set delete remove destroy archive unarchive post send publish push merge " +
    "write comment reply upload move rename assign unassign close reopen cancel approve reject submit deploy " +
    "trigger put patch save replace upsert transfer invite label link unlink subscribe unsubscribe schedule mark " +
    "lock unlock enable disable revoke grant react star unstar fork resolve_thread dismiss request"
  ).split(" "),
);

const READ_VERBS = new Set(
  "get list search read fetch query find view show describe lookup retrieve count inspect browse whoami".split(" "),
);

/** Verbs that say nothing of reading or writing: a name leading with one is unknown whatever follows (`run_query`). */
const OPEN_VERBS = new Set(
  "run execute exec call invoke do perform apply start stop restart kill click type press eval process handle manage sync".split(
    " ",
  ),
);

/** What a local-tool server's write acts on: its writes are the file system's, not a request. */
const LOCAL_OBJECTS = new Set(
  "file files directory directories dir folder path paths line lines text symbol symbols notebook cell memory code".split(" "),
);

/** The tool part of an MCP-style name, and the server when the name carries one. */
export function mcpToolParts(name: string): { server?: string; tool: string } {
  const claude = /^mcp__(.+?)__(.+)$/.exec(name);
  if (claude) return { server: claude[1]!, tool: claude[2]! };
  const doubled = /^([^_].*?)__(.+)$/.exec(name);
  if (doubled) return { server: doubled[1]!, tool: doubled[2]! };
  const dotted = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(name);
  if (dotted) return { server: dotted[1]!, tool: dotted[2]! };
  return { tool: name };
}

/** The words of a tool name: camelCase, kebab-case and snake_case alike, in lower case. */
function words(tool: string): string[] {
  return tool
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
}

/**
 * The verb a tool's name leads with, read or write; null when its name does not say. A name may
 * put its service first (`helm_list_releases`, `n8n_get_workflow`): the verb is then the second word.
 */
export function mcpVerb(tool: string): McpVerb | null {
  const w = words(tool);
  if (OPEN_VERBS.has(w[0] ?? "")) return null;
  const at = w.findIndex((x) => READ_VERBS.has(x) || WRITE_VERBS.has(x));
  if (at < 0 || at > 1) return null;
  if (READ_VERBS.has(w[at]!)) return "read";
  return w.slice(at + 1).some((x) => LOCAL_OBJECTS.has(x)) ? null : "write";
}

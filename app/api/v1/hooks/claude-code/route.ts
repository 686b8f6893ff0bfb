import { afterResponse } from "@/app/after-response";
import { answerClaudeCodeHook, ClaudeCodeHookQuerySchema, ClaudeCodeHookSchema } from "@/lib/api/claude-code-hook";
import { otherMethods } from "@/lib/api/respond";
import { apiRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";

/**
 * Claude Code's HTTP hooks (PreCompact, PostCompact, Stop, SubagentStop, SessionEnd): the event's
 * JSON as Claude Code posts it; the same capture as the process hooks, read by this server from the
 * transcript on its own disk.
 */
export const POST = apiRoute({
  permission: "spans:write",
  query: ClaudeCodeHookQuerySchema,
  body: ClaudeCodeHookSchema,
  handler: async ({ caller, body, query }) =>
    answerClaudeCodeHook(caller, body, { failClosed: query.failClosed === "1", later: afterResponse }),
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");

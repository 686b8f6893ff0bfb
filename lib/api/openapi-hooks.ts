/** The OpenAPI document's path for Claude Code's HTTP hooks (POST /api/v1/hooks/claude-code). */
import { ClaudeCodeHookQuerySchema, ClaudeCodeHookSchema } from "./claude-code-hook";
import { errors, json, ok, queryParameters, requestSchema } from "./openapi-parts";

export const claudeCodeHookPaths = {
  "/api/v1/hooks/claude-code": {
    post: {
      summary: "Claude Code's HTTP hooks (type: http): PreCompact, PostCompact, Stop, SubagentStop, SessionEnd",
      description:
        "The hook input exactly as Claude Code posts it. This server reads the named transcript from its own disk " +
        "(only .jsonl files under CUSTODIAN_HOOK_TRANSCRIPT_ROOTS, default ~/.claude/projects of the user it runs as), " +
        "from the file's cursor, through the same reader and use case as the process hooks. PreCompact waits for the " +
        "capture and the gate (at most CUSTODIAN_HOOK_TIMEOUT_MS); the other events are answered at once and captured " +
        "after the response. Failures never stop the agent: the answer is a warning (systemMessage), except a PreCompact " +
        "with failClosed=1, which blocks the compaction (decision: block).",
      parameters: queryParameters(ClaudeCodeHookQuerySchema),
      requestBody: { required: true, ...json(requestSchema(ClaudeCodeHookSchema)) },
      responses: {
        "204": { description: "Go on (Claude Code reads an empty 2xx as success with no output)" },
        "200": ok("Go on with a warning, or (PreCompact, failClosed=1) block the compaction", {
          type: "object",
          properties: {
            systemMessage: { type: "string", description: "A warning Claude Code shows the user; the session goes on" },
            decision: { enum: ["block"] },
            reason: { type: "string" },
          },
        }),
        ...errors(401, 403, 413, 422, 429),
      },
    },
  },
};

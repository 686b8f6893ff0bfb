-- Evidence questions that ask whether a tool was called ({"toolNames": ["Bash"]}) find the calls by
-- the span's tool name: a call's body need not spell it (a Claude Code tool_use input does not).
-- The engine folds ASCII letters only; lower() under the "C" collation does exactly that. Prisma's
-- schema language cannot express an expression index: schema.prisma names it in a comment.
-- CreateIndex
CREATE INDEX "span_tool_call_name_idx" ON "span" ("session_id", (lower("tool_name" COLLATE "C"))) INCLUDE ("id")
  WHERE "kind" = 'TOOL_CALL';

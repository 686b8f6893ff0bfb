/**
 * Where the next page starts, as an opaque string: an offset into the ranked list (when every
 * match could be ranked) or the last hit's place among the newest (when there were too many).
 */
import { AppError } from "@/lib/core/errors";

export type SearchCursor =
  | { order: "relevance"; offset: number }
  | { order: "newest"; at: string; sessionId: string; spanId: string };

export function encodeCursor(cursor: SearchCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function decodeCursor(text: string): SearchCursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    value = null;
  }
  const c = value as Partial<Record<string, unknown>> | null;
  if (c?.order === "relevance" && Number.isSafeInteger(c.offset) && (c.offset as number) >= 0)
    return { order: "relevance", offset: c.offset as number };
  if (
    c?.order === "newest" &&
    typeof c.at === "string" &&
    !Number.isNaN(Date.parse(c.at)) &&
    typeof c.sessionId === "string" &&
    UUID.test(c.sessionId) &&
    typeof c.spanId === "string" &&
    UUID.test(c.spanId)
  )
    return { order: "newest", at: c.at, sessionId: c.sessionId, spanId: c.spanId };
  throw new AppError("VALIDATION_FAILED", "The cursor is not one a search returned", {
    fields: [{ path: "cursor", message: "pass nextCursor as it was returned" }],
  });
}

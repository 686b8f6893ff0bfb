import { AppError } from "@/lib/core/errors";
import type { SpanSubmission } from "./span-submission";
import { textCannotHold } from "@/lib/core/text";

/**
 * Postgres text cannot hold the NUL character or a lone UTF-16 surrogate. Bodies are bytes and keep
 * both, and so does tool input (storable.ts); the fields stored as text are refused with the field
 * at fault.
 */
export function rejectUnstorableText(fields: Array<[path: string, value: unknown]>) {
  const bad = fields
    .filter(([, value]) => holdsNul(value))
    .map(([path]) => ({ path, message: "must not contain the NUL character (U+0000) or a lone surrogate" }));
  if (bad.length > 0)
    throw new AppError("VALIDATION_FAILED", "Text fields cannot hold the NUL character; send such content in the body", {
      fields: bad,
    });
}

const STORED_AS_TEXT = ["role", "toolName", "cwd", "agentId", "agentType"] as const;

/** The span's fields that Postgres cannot store as they are (they hold NUL): its bytes can. */
export function unstorableFields(
  span: Pick<SpanSubmission, (typeof STORED_AS_TEXT)[number]>,
): Array<(typeof STORED_AS_TEXT)[number]> {
  return STORED_AS_TEXT.filter((field) => holdsNul(span[field]));
}

/** NUL or a lone surrogate in a text field. */
function holdsNul(value: unknown): boolean {
  return typeof value === "string" && textCannotHold(value);
}

import { z } from "zod";
import { AppError } from "./errors";
import { unstorableChar } from "./text";

/** zod issues as `{path, message}` with dotted paths ("spans.3.seq"). */
export function zodFields(error: z.ZodError) {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join(".") || "(body)", message: issue.message }));
}

/** Validates input at a boundary (route, server action, use case): 422 with the fields at fault. */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown, what = "The request body"): T {
  const result = schema.safeParse(value);
  if (!result.success)
    throw new AppError("VALIDATION_FAILED", `${what} does not match the schema`, { fields: zodFields(result.error) });
  return result.data;
}

/**
 * Why Postgres text cannot hold `s` exactly, or null: the NUL character, or a lone UTF-16
 * surrogate (which has no UTF-8 encoding). Bodies are bytes and hold both; names, labels and
 * filters are text and refuse them.
 */
export function unstorableText(s: string): string | null {
  const found = unstorableChar(s);
  if (found === "nul") return "must not contain the NUL character (U+0000)";
  if (found === "lone-surrogate") return "must not contain a lone surrogate (not text: send such content in the body)";
  return null;
}

/** A string stored or compared as text: no NUL, no lone surrogate. */
export const text = () =>
  z.string().superRefine((s, ctx) => {
    const problem = unstorableText(s);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

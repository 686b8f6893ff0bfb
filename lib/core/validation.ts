import type { z } from "zod";
import { AppError } from "./errors";

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

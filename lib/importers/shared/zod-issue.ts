/** One line of text for a record that failed its shape: the first problem and where it is. */
import type { z } from "zod";

export function describeZodError(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return "unexpected record shape";
  const path = first.path.length > 0 ? first.path.map(String).join(".") : "record";
  return `${path}: ${first.message}`;
}

import type { ErrorCode, FieldError } from "./errors";

/** What was typed into a form, by field name (a repeated field, such as checkboxes, as a list). */
export type FormValues = Record<string, string | string[]>;

/**
 * What a server action returns to its form: a message to show (and, for some acts, data to show
 * below it), or the one error shape with the fields at fault and what was typed, so the form can
 * show it again instead of losing it.
 */
export type ActionResult<T = undefined> =
  | { ok: true; message: string /** A secret shown once (a new API key or password). */; secret?: string; data?: T }
  | { ok: false; error: { code: ErrorCode; message: string; fields?: FieldError[] }; values?: FormValues };

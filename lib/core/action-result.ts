import type { ErrorCode } from "./errors";

/** What a server action returns to its form: a message to show, or the one error shape. */
export type ActionResult =
  | { ok: true; message: string /** A secret shown once (a new API key or password). */; secret?: string }
  | { ok: false; error: { code: ErrorCode; message: string } };

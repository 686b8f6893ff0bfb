import { AppError, toAppError, type ErrorCode } from "@/lib/api/errors";

/** What a server action returns to its form: a message to show, or the one error shape. */
export type ActionResult =
  | { ok: true; message: string /** A secret shown once (a new API key or password). */; secret?: string }
  | { ok: false; error: { code: ErrorCode; message: string } };

export async function runAction(act: () => Promise<string | { message: string; secret: string }>): Promise<ActionResult> {
  try {
    const outcome = await act();
    return typeof outcome === "string" ? { ok: true, message: outcome } : { ok: true, ...outcome };
  } catch (error) {
    const appError = toAppError(error);
    if (!(error instanceof AppError)) console.error("Server action failed", error);
    return { ok: false, error: { code: appError.code, message: appError.message } };
  }
}

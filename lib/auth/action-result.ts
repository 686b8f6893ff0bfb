import { AppError, toAppError, type ErrorCode } from "@/lib/api/errors";

/** What a server action returns to its form: a message to show, or the one error shape. */
export type ActionResult = { ok: true; message: string } | { ok: false; error: { code: ErrorCode; message: string } };

export async function runAction(act: () => Promise<string>): Promise<ActionResult> {
  try {
    return { ok: true, message: await act() };
  } catch (error) {
    const appError = toAppError(error);
    if (!(error instanceof AppError)) console.error("Server action failed", error);
    return { ok: false, error: { code: appError.code, message: appError.message } };
  }
}

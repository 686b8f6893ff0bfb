import { AppError, toAppError } from "@/lib/core/errors";

import type { ActionResult } from "@/lib/core/action-result";

export type { ActionResult } from "@/lib/core/action-result";

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

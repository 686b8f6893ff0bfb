import { NextResponse } from "next/server";
import { AppError, toAppError } from "@/lib/core/errors";

/** The one place errors become HTTP responses: `{error:{code,message,fields?}}`, never a stack trace. */
export function errorResponse(error: unknown): NextResponse {
  const appError = toAppError(error);
  if (!(error instanceof AppError)) console.error("Unhandled error in route handler", error);
  return NextResponse.json(appError.toJSON(), { status: appError.status, headers: appError.options.headers });
}

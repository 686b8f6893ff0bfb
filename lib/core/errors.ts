/**
 * The one error type. Every failure that reaches a caller (HTTP, server action, CLI) is an AppError
 * with an HTTP status and a stable machine-readable code; anything else is reported as INTERNAL
 * without its internals.
 */

export const ERROR_CODES = {
  INVALID_JSON: 400,
  INVALID_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_FORMAT: 415,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  VALIDATION_FAILED: 422,
  NO_SESSIONS_FOUND: 422,
  RATE_LIMITED: 429,
  IMPORT_QUEUE_FULL: 429,
  INTERNAL: 500,
  DATABASE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface FieldError {
  /** Dotted path of the field at fault, e.g. "spans.3.seq". */
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: { fields?: FieldError[]; headers?: Record<string, string>; details?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.status = ERROR_CODES[code];
  }

  get fields(): FieldError[] | undefined {
    return this.options.fields;
  }

  toJSON(): { error: { code: ErrorCode; message: string; fields?: FieldError[]; details?: Record<string, unknown> } } {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.options.fields ? { fields: this.options.fields } : {}),
        ...(this.options.details ? { details: this.options.details } : {}),
      },
    };
  }
}

/**
 * Whether a database error in `error`'s chain has one of these codes (Prisma's, or the SQLSTATE
 * the driver adapter keeps as `originalCode`) or driver adapter error kinds.
 */
export function databaseErrorIs(error: unknown, codes: ReadonlySet<string>, kinds: ReadonlySet<string> = new Set()): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const o = e as {
      code?: unknown;
      kind?: unknown;
      originalCode?: unknown;
      cause?: unknown;
      meta?: { driverAdapterError?: unknown };
    };
    if (typeof o.code === "string" && codes.has(o.code)) return true;
    if (typeof o.originalCode === "string" && codes.has(o.originalCode)) return true;
    if (typeof o.kind === "string" && kinds.has(o.kind)) return true;
    e = o.meta?.driverAdapterError ?? o.cause;
  }
  return false;
}

/**
 * Postgres' verdict on transactions that collided (a serialization failure, a deadlock): the
 * transaction was rolled back whole, so nothing was written and trying again can succeed.
 */
export function isTransactionConflict(error: unknown): boolean {
  return databaseErrorIs(error, new Set(["P2034", "40001", "40P01"]), new Set(["TransactionWriteConflict"]));
}

/**
 * Anything thrown that is not an AppError becomes an opaque INTERNAL error, except a transaction
 * that collided with a concurrent one: that is a CONFLICT the caller may retry.
 */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (isTransactionConflict(error))
    return new AppError("CONFLICT", "A concurrent change collided with this one; nothing was written. Try again.", {
      headers: { "Retry-After": "1" },
    });
  return new AppError("INTERNAL", "Internal error");
}

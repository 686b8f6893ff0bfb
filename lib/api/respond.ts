import { NextResponse } from "next/server";
import { AppError, toAppError } from "@/lib/core/errors";
import { isDatabaseUnavailable } from "@/lib/db/client";

export { isDatabaseUnavailable };

/** Seconds a client should wait before trying again while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The answer while the database cannot be reached: 503 with Retry-After; the pool reconnects by itself when it is back. */
export function databaseUnavailable(): AppError {
  return new AppError("DATABASE_UNAVAILABLE", "The database is unreachable; try again shortly", {
    headers: { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) },
  });
}

/** The one place errors become HTTP responses: `{error:{code,message,fields?}}`, never a stack trace. */
export function errorResponse(error: unknown): NextResponse {
  if (!(error instanceof AppError) && isDatabaseUnavailable(error)) error = databaseUnavailable();
  const appError = toAppError(error);
  if (appError.code === "INTERNAL") console.error("Unhandled error in route handler", error);
  return NextResponse.json(appError.toJSON(), { status: appError.status, headers: appError.options.headers });
}

export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
type Handler = (request: Request) => Response;

/** What a route that serves `served` lists in Allow: HEAD comes with GET, OPTIONS always. */
function allowOf(served: readonly HttpMethod[]): string {
  const allowed = new Set<HttpMethod>([...served, "OPTIONS"]);
  if (allowed.has("GET")) allowed.add("HEAD");
  return HTTP_METHODS.filter((m) => allowed.has(m)).join(", ");
}

/** The methods a route serving `S` leaves to `otherMethods`: HEAD goes with GET (Next.js answers it from GET). */
type Unserved<S extends HttpMethod> = Exclude<HttpMethod, S | ("GET" extends S ? "HEAD" : never)>;

/**
 * Handlers for every method a route does not serve: 405 `{error:{code,message}}` naming the ones it
 * does in Allow, and OPTIONS answering with that Allow. A route file spreads them beside its own:
 * `export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");` (naming a served
 * method, or HEAD beside GET, is a type error).
 */
export function otherMethods<S extends HttpMethod>(...served: S[]): Record<Unserved<S>, Handler> {
  const allow = allowOf(served);
  const refuse: Handler = (request) =>
    errorResponse(
      new AppError("METHOD_NOT_ALLOWED", `${request.method} is not allowed here; this route answers ${allow}`, {
        headers: { Allow: allow },
      }),
    );
  const options: Handler = () => new NextResponse(null, { status: 204, headers: { Allow: allow } });
  const unserved = HTTP_METHODS.filter(
    (m) => !(served as HttpMethod[]).includes(m) && !(m === "HEAD" && served.includes("GET" as S)),
  );
  return Object.fromEntries(unserved.map((m) => [m, m === "OPTIONS" ? options : refuse])) as Record<Unserved<S>, Handler>;
}

/** The answer for a path under /api that no route serves, whatever the method. */
export function noSuchRoute(request: Request): NextResponse {
  return errorResponse(new AppError("NOT_FOUND", `No route ${new URL(request.url).pathname}`));
}

/** Error codes keep to the house style: upper case words joined by underscores. */
const CODE = /^[A-Z][A-Z0-9_]*$/;
const CODE_BY_STATUS: Record<number, string> = {
  400: "INVALID_REQUEST",
  401: "UNAUTHENTICATED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "VALIDATION_FAILED",
  429: "RATE_LIMITED",
};

/**
 * An error answered by code that is not ours (the sign-in library's `{code,message}`, or an empty
 * body) in the house shape `{error:{code,message}}`, its status and headers kept.
 */
export async function asErrorShape(response: Response): Promise<Response> {
  if (response.status < 400) return response;
  const text = await response.text();
  let parsed: { code?: unknown; message?: unknown; error?: unknown } = {};
  try {
    parsed = text ? (JSON.parse(text) as typeof parsed) : {};
  } catch {
    parsed = {};
  }
  if (parsed.error && typeof parsed.error === "object")
    return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
  const code =
    typeof parsed.code === "string" && CODE.test(parsed.code)
      ? parsed.code
      : (CODE_BY_STATUS[response.status] ?? (response.status >= 500 ? "INTERNAL" : "INVALID_REQUEST"));
  const message = typeof parsed.message === "string" && parsed.message ? parsed.message : response.statusText || code;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.delete("content-type");
  return NextResponse.json({ error: { code, message } }, { status: response.status, headers });
}

/**
 * Calling route handlers in process, as Next.js does: a Request and a context with the path's
 * dynamic segments. For tests and the fuzz run, which need no server to reach every route.
 */
import { inRequestScope } from "./request-scope";

export type RouteHandler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface CallOptions {
  key?: string;
  method?: string;
  /** A value sent as JSON. */
  body?: unknown;
  /** A body sent as it is. */
  raw?: BodyInit;
  headers?: Record<string, string>;
  params?: Record<string, string>;
  /** Path and query string, e.g. "/api/v1/sessions?limit=5". */
  path?: string;
}

export interface CallResult {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads whatever JSON came back
  json: any;
  text: string;
}

export async function callRoute(handler: RouteHandler, options: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  const method = options.method ?? "POST";
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const request = new Request(`http://custodian.test${options.path ?? "/api/v1/x"}`, {
    method,
    headers,
    body: method === "GET" || method === "HEAD" ? undefined : body,
  });
  const response = await inRequestScope(request, options.path ?? "/api/v1/x", () =>
    handler(request, { params: Promise.resolve(options.params ?? {}) }),
  );
  const text = await response.text();
  let json: unknown = null;
  if ((response.headers.get("content-type") ?? "").includes("json") && text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
  }
  return { status: response.status, headers: response.headers, json, text };
}

/**
 * Calling route handlers in process, as Next.js does: a Request and a context with the path's
 * dynamic segments. For tests and the fuzz run, which need no server to reach every route.
 */
import type { Socket } from "node:net";
import { stampRequest } from "@/lib/runner/serve-next";
import { inRequestScope } from "./request-scope";

/** The server's own stamp (stampRequest), on headers as Node.js would have parsed them. */
function stampHeaders(headers: Record<string, string>, peer: string): Record<string, string> {
  const parsed: Record<string, string | string[] | undefined> = {};
  const rawHeaders: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    parsed[name.toLowerCase()] = value;
    rawHeaders.push(name, value);
  }
  stampRequest({ headers: parsed, rawHeaders, socket: { remoteAddress: peer } as Socket });
  return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === "string"));
}

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
  /**
   * The address the connection comes from: the request's headers then go through what the server
   * does to them (lib/runner/serve-next.ts), so a forged client address or X-Forwarded-For is
   * treated as it would be when served.
   */
  peer?: string;
}

export interface CallResult {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads whatever JSON came back
  json: any;
  text: string;
}

export async function callRoute(handler: RouteHandler, options: CallOptions = {}): Promise<CallResult> {
  let headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.peer !== undefined) headers = stampHeaders(headers, options.peer);
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

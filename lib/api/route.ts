import { NextResponse } from "next/server";
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { requirePermission, type Permission } from "@/lib/core/permissions";
import { parseWith, zodFields } from "@/lib/core/validation";
import { authenticate, type ApiCaller } from "./auth";
import { readJson } from "./body";
import { takeToken } from "./rate-limit";
import { errorResponse } from "./respond";

/** Dynamic route segments as Next.js passes them, e.g. `{ id }` for `sessions/[id]/spans`. */
type RawParams = Record<string, string | string[] | undefined>;

/** The path of a resource named by its id: `[id]` must be a uuid. */
export const IdParams = z.object({ id: z.uuid() });

interface RouteContext<P, Q> {
  caller: ApiCaller;
  params: P;
  query: Q;
  request: Request;
}

/** The query string as an object: a name given once is a string, given more than once a list. */
function queryObject(url: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URL(url).searchParams) {
    const previous = query[name];
    query[name] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return query;
}

/**
 * A path that does not fit its schema names no resource: 404, as for an id that does not exist,
 * with the segment at fault named.
 */
function parseParams<P>(schema: z.ZodType<P>, params: RawParams): P {
  const result = schema.safeParse(params);
  if (result.success) return result.data;
  throw new AppError("NOT_FOUND", "Not found: the path does not name a resource", { fields: zodFields(result.error) });
}

/**
 * The one factory for /api/v1 route handlers: authenticate, rate-limit, check the permission
 * first, validate the path parameters, the query string and the body, run the use case, validate
 * the response, and map every error in one place.
 */
export function apiRoute<B, R, P = RawParams, Q = Record<string, string | string[]>>(options: {
  permission: Permission;
  /** The path's dynamic segments; one that does not fit is a 404 naming the segment. */
  params?: z.ZodType<P>;
  /** The query string; a value that does not fit is a 422 naming the parameter. */
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  response?: z.ZodType<R>;
  status?: number;
  handler: (ctx: RouteContext<P, Q> & { body: B }) => Promise<R | Response>;
}) {
  return async (request: Request, context: { params: Promise<RawParams> }): Promise<Response> => {
    try {
      const caller = await authenticate(request);
      takeToken(caller.keyId);
      requirePermission(caller.role, options.permission);
      const rawParams = (await context.params) ?? {};
      const params = options.params ? parseParams(options.params, rawParams) : (rawParams as P);
      const rawQuery = queryObject(request.url);
      const query = options.query ? parseWith(options.query, rawQuery, "The query string") : (rawQuery as Q);
      const body = options.body ? parseWith(options.body, await readJson(request)) : (undefined as B);
      const result = await options.handler({ caller, params, query, request, body });
      if (result instanceof Response) return result;
      const checked = options.response ? options.response.parse(result) : result;
      return NextResponse.json(checked, { status: options.status ?? 200 });
    } catch (error) {
      return errorResponse(error);
    }
  };
}

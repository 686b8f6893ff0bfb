import { NextResponse } from "next/server";
import type { z } from "zod";
import { authenticate, type ApiCaller } from "./auth";
import { readJson } from "./body";
import { requirePermission, type Permission } from "@/lib/core/permissions";
import { takeToken } from "./rate-limit";
import { errorResponse } from "./respond";
import { parseWith } from "@/lib/core/validation";

/** Dynamic route segments, e.g. `{ id }` for `sessions/[id]/spans`. */
type Params = Record<string, string>;

interface RouteContext {
  caller: ApiCaller;
  params: Params;
  request: Request;
}

/**
 * The one factory for /api/v1 route handlers: authenticate, rate-limit, check the permission
 * first, validate the body, run the use case, validate the response, and map every error in one place.
 */
export function apiRoute<B, R>(options: {
  permission: Permission;
  body?: z.ZodType<B>;
  response?: z.ZodType<R>;
  status?: number;
  handler: (ctx: RouteContext & { body: B }) => Promise<R | Response>;
}) {
  return async (request: Request, context: { params: Promise<Params> }): Promise<Response> => {
    try {
      const caller = await authenticate(request);
      takeToken(caller.keyId);
      requirePermission(caller.role, options.permission);
      const params = await context.params;
      const body = options.body ? parseWith(options.body, await readJson(request)) : (undefined as B);
      const result = await options.handler({ caller, params, request, body });
      if (result instanceof Response) return result;
      const checked = options.response ? options.response.parse(result) : result;
      return NextResponse.json(checked, { status: options.status ?? 200 });
    } catch (error) {
      return errorResponse(error);
    }
  };
}

import { apiRoute } from "@/lib/api/route";
import { GateEvaluateResultSchema, GateEvaluateSchema } from "@/lib/api/schemas";
import { evaluateGateRequest } from "@/lib/server/gate";
import { otherMethods } from "@/lib/api/respond";

export const dynamic = "force-dynamic";

/** The gate as a pure service: decides, stores nothing. */
export const POST = apiRoute({
  permission: "gate:run",
  body: GateEvaluateSchema,
  response: GateEvaluateResultSchema,
  handler: async ({ caller, body }) => ({ results: await evaluateGateRequest(caller.projectId, body) }),
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");

import { originalResponse } from "@/lib/api/original-response";
import { otherMethods } from "@/lib/api/respond";
import { apiRoute, IdParams } from "@/lib/api/route";
import { heldOriginal } from "@/lib/server/provenance";

export const dynamic = "force-dynamic";

/**
 * The verbatim bytes, streamed (one byte range when `Range` asks for it, 206), with their sha256 in
 * headers; 410 with the reason once expired or lost.
 */
export const GET = apiRoute({
  permission: "read",
  params: IdParams,
  handler: async ({ caller, params, request }) =>
    originalResponse(await heldOriginal(caller.projectId, params.id), request.headers.get("range")),
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");

import { MAX_BODY_BYTES, readBodyBytes } from "@/lib/api/body";
import { gunzipWithin } from "@/lib/api/inflate";
import { otherMethods } from "@/lib/api/respond";
import { apiRoute } from "@/lib/api/route";
import { AppError } from "@/lib/core/errors";
import { decodeTraceRequest, encodeTraceResponse, receiveOtlpTraces } from "@/lib/server/integrations";

export const dynamic = "force-dynamic";

const PROTOBUF = "application/x-protobuf";
const JSON_TYPE = "application/json";

function bodyType(request: Request): typeof PROTOBUF | typeof JSON_TYPE {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === PROTOBUF || type === "application/protobuf") return PROTOBUF;
  if (type === JSON_TYPE) return JSON_TYPE;
  throw new AppError("UNSUPPORTED_MEDIA_TYPE", `OTLP/HTTP bodies are ${PROTOBUF} or ${JSON_TYPE}, not ${type || "untyped"}`);
}

/**
 * The body as sent, then inflated: both within the JSON body limit (MAX_BODY_BYTES), the inflated
 * one counted as it streams so a gzip bomb is refused at the limit, not after it is held whole.
 */
async function inflate(bytes: Uint8Array, request: Request): Promise<Uint8Array> {
  const encoding = (request.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (encoding === "identity" || encoding === "") return bytes;
  if (encoding !== "gzip")
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", `Content-Encoding ${encoding} is not supported: send gzip or none`);
  return gunzipWithin(bytes, MAX_BODY_BYTES);
}

function decode(bytes: Uint8Array, type: typeof PROTOBUF | typeof JSON_TYPE): Record<string, unknown> {
  try {
    if (type === PROTOBUF) return decodeTraceRequest(bytes);
    const value: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("not a JSON object");
    return value as Record<string, unknown>;
  } catch (error) {
    throw new AppError("INVALID_REQUEST", `The body is not an ExportTraceServiceRequest: ${(error as Error).message}`);
  }
}

/**
 * OTLP/HTTP traces (protobuf or JSON, optionally gzip): GenAI spans become sessions and spans; a
 * span that cannot be mapped is counted in the response's partial success, in the request's encoding.
 * A body over MAX_BODY_BYTES, as sent or once inflated, is a 413; a span over the attribute, event
 * or link caps (OTLP_SPAN_LIMITS) is rejected whole in the partial success, not stored.
 */
export const POST = apiRoute({
  permission: "spans:write",
  handler: async ({ caller, request }) => {
    const type = bodyType(request);
    const bytes = await inflate(await readBodyBytes(request, MAX_BODY_BYTES), request);
    const receipt = await receiveOtlpTraces(caller.projectId, decode(bytes, type), { requester: caller.label });
    const partial =
      receipt.rejectedSpans > 0 || receipt.errorMessage
        ? { rejectedSpans: receipt.rejectedSpans, errorMessage: receipt.errorMessage }
        : undefined;
    if (type === PROTOBUF)
      return new Response(Buffer.from(encodeTraceResponse(partial)), { headers: { "Content-Type": PROTOBUF } });
    return Response.json(
      partial ? { partialSuccess: { rejectedSpans: String(partial.rejectedSpans), errorMessage: partial.errorMessage } } : {},
    );
  },
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");

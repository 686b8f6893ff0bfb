/** The OpenAPI document's OTLP/HTTP receiver path (POST /api/otlp/v1/traces), with its limits. */
import { OTLP_SPAN_LIMITS } from "@/lib/importers/otel-genai/otlp-limits";
import { MAX_BODY_BYTES } from "./body";
import { errors } from "./openapi-parts";

export const otlpPaths = {
  "/api/otlp/v1/traces": {
    post: {
      summary: "OTLP/HTTP traces: OpenTelemetry GenAI spans become sessions and spans",
      description:
        "An ExportTraceServiceRequest as protobuf (application/x-protobuf) or JSON (application/json), optionally gzip " +
        "(Content-Encoding). Spans that cannot be mapped are counted in partialSuccess.rejectedSpans with the reasons; " +
        "spans waiting for their parent are named there as a warning. The answer is in the request's encoding. " +
        `A body over ${MAX_BODY_BYTES} bytes, as sent or once inflated, is refused with 413 PAYLOAD_TOO_LARGE ` +
        "(inflating stops at the limit). A span with more than " +
        `${OTLP_SPAN_LIMITS.attributes} attributes, ${OTLP_SPAN_LIMITS.events} events, ${OTLP_SPAN_LIMITS.links} links ` +
        `or ${OTLP_SPAN_LIMITS.entryAttributes} attributes on one event or link, or of a resource with more than ` +
        `${OTLP_SPAN_LIMITS.attributes} attributes, is rejected whole (counted in partialSuccess.rejectedSpans, ` +
        "the cap named in errorMessage) and not stored; the rest of the batch is received.",
      requestBody: {
        required: true,
        content: {
          "application/x-protobuf": { schema: { type: "string", contentMediaType: "application/x-protobuf" } },
          "application/json": {
            schema: { type: "object", properties: { resourceSpans: { type: "array", items: { type: "object" } } } },
          },
        },
      },
      responses: {
        "200": {
          description: "ExportTraceServiceResponse (partialSuccess when spans were rejected or held)",
          content: {
            "application/x-protobuf": { schema: { type: "string", contentMediaType: "application/x-protobuf" } },
            "application/json": {
              schema: {
                type: "object",
                properties: {
                  partialSuccess: {
                    type: "object",
                    properties: { rejectedSpans: { type: "string" }, errorMessage: { type: "string" } },
                  },
                },
              },
            },
          },
        },
        ...errors(400, 401, 403, 413, 415, 429),
      },
    },
  },
};

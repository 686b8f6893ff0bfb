/** The OpenAPI document's building blocks: schemas from zod, the error shape, responses, query parameters. */
import { z } from "zod";
import { MAX_BODY_BYTES } from "./body";
import { LIMITS } from "./schemas";

export const requestSchema = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: "input", unrepresentable: "any", reused: "inline" });
export const responseSchema = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: "output", unrepresentable: "any", reused: "inline" });

/** A query-string schema as OpenAPI parameters, one per property. */
export function queryParameters(schema: z.ZodObject) {
  const json = requestSchema(schema) as { properties?: Record<string, object>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: "query",
    required: json.required?.includes(name) ?? false,
    schema: property,
  }));
}

export const ErrorSchema = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: {
        code: { type: "string", description: "Stable machine-readable code, e.g. VALIDATION_FAILED" },
        message: { type: "string" },
        fields: {
          type: "array",
          items: { type: "object", properties: { path: { type: "string" }, message: { type: "string" } } },
        },
        details: { type: "object" },
      },
    },
  },
};

export const errors = (...codes: number[]) =>
  Object.fromEntries(
    codes.map((code) => [
      String(code),
      {
        description: ERROR_TEXT[code] ?? "Error",
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      },
    ]),
  );

export const ERROR_TEXT: Record<number, string> = {
  400: "Malformed JSON or invalid UTF-8 (INVALID_JSON)",
  401: "Missing, unknown or revoked API key (UNAUTHENTICATED)",
  403: "The key's role lacks the permission (FORBIDDEN)",
  404: "Unknown resource, or one of another project (NOT_FOUND)",
  409: "Conflicts with what is stored; nothing was written (CONFLICT)",
  410: "The original is gone, with the reason (GONE)",
  416: "The byte range starts past the original's end; Content-Range names its length (RANGE_NOT_SATISFIABLE)",
  413: `Body over ${MAX_BODY_BYTES} bytes, or a span over ${LIMITS.maxSpanBytes} bytes (PAYLOAD_TOO_LARGE)`,
  422: "The body does not match the schema; fields name the paths at fault (VALIDATION_FAILED)",
  429: "Too many requests for this key; see Retry-After (RATE_LIMITED)",
};

export const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
/** A success response: OpenAPI requires every response to say what it is. */
export const ok = (description: string, schema: unknown) => ({ description, ...json(schema) });

import { z } from "zod";
import { MAX_BODY_BYTES } from "./body";
import {
  GateEvaluateResultSchema,
  GateEvaluateSchema,
  LIMITS,
  ReclamationResultSchema,
  ReclamationSchema,
  SessionCreateSchema,
  SessionSchema,
  SpanBatchResultSchema,
  SpanBatchSchema,
} from "./schemas";
import { SessionListQuerySchema, SessionListSchema, SpanListQuerySchema, SpanListSchema } from "./read-schemas";
import {
  RetentionPolicyPutSchema,
  RetentionPolicyResultSchema,
  RetentionPolicySavedSchema,
  RetentionSimulationResultSchema,
  RetentionSimulationSchema,
} from "./retention-schemas";

import { ErrorSchema, errors, json, ok, queryParameters, requestSchema, responseSchema } from "./openapi-parts";
import { claudeCodeHookPaths } from "./openapi-hooks";
import { otlpPaths } from "./openapi-otlp";
import { searchPaths } from "./openapi-search";
import { evidenceQuestionPaths, savedQuestionPaths } from "./openapi-questions";

/** The OpenAPI 3.1 document, generated from the same zod schemas the handlers validate with. */
export function openApiDocument() {
  return {
    openapi: "3.1.0",
    info: {
      title: "Custodian API",
      version: "1",
      description:
        "Runtimes stream spans, ask the gate before compacting, and fetch originals. " +
        `Limits: request body ${MAX_BODY_BYTES} bytes; ${LIMITS.maxSpansPerBatch} spans per batch; ` +
        `${LIMITS.maxSpanBytes} bytes per span body; ${LIMITS.maxSpansPerGateCall} spans per gate call.`,
    },
    servers: [{ url: "/" }],
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "A project API key (npm run custodian -- keys create)" },
      },
      schemas: { Error: ErrorSchema },
    },
    paths: {
      "/api/v1/health": {
        get: {
          summary: "Health: database kind and migration state",
          security: [],
          responses: {
            "200": ok("The server and its database are up", {
              type: "object",
              properties: {
                status: { enum: ["ok", "degraded"] },
                database: { enum: ["embedded", "postgres"] },
                migrations: { enum: ["current", "pending"] },
              },
            }),
            "503": {
              description:
                "Degraded: migrations pending, the database unreachable (with Retry-After), or not answering within 3 s (`unresponsive`)",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: {
                      status: { enum: ["degraded"] },
                      database: { enum: ["embedded", "postgres", "unreachable", "unresponsive"] },
                      migrations: { enum: ["current", "pending"] },
                    },
                  },
                },
              },
            },
          },
        },
      },
      "/api/v1/sessions": {
        get: {
          summary: "The project's sessions, oldest first, a page at a time (filter by runtime or externalId)",
          parameters: queryParameters(SessionListQuerySchema),
          responses: {
            "200": ok(
              "A page of sessions, the total, and the cursor of the next page (null on the last)",
              responseSchema(SessionListSchema),
            ),
            ...errors(401, 403, 422, 429),
          },
        },
        post: {
          summary: "Create or update a session by its external id",
          requestBody: { required: true, ...json(requestSchema(SessionCreateSchema)) },
          responses: {
            "200": ok("The session, created or updated", responseSchema(SessionSchema)),
            ...errors(400, 401, 403, 413, 422, 429),
          },
        },
      },
      "/api/v1/sessions/{id}/spans": {
        get: {
          summary: "A session's spans in transcript order, with status, outcome, exit code, agent and source line",
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } },
            ...queryParameters(SpanListQuerySchema),
          ],
          responses: {
            "200": ok(
              "A page of spans, the total, and the cursor of the next page (null on the last)",
              responseSchema(SpanListSchema),
            ),
            ...errors(401, 403, 404, 422, 429),
          },
        },
        post: {
          summary: "Append a batch of spans in one transaction (idempotent per seq and bytes)",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
          requestBody: { required: true, ...json(requestSchema(SpanBatchSchema)) },
          responses: {
            "200": ok("Per span: id, class, atom count, sha256, and whether it was new", responseSchema(SpanBatchResultSchema)),
            ...errors(400, 401, 403, 404, 409, 413, 422, 429),
          },
        },
      },
      "/api/v1/gate/evaluate": {
        post: {
          summary: "Evaluate the gate on reported span facts; stores nothing",
          requestBody: { required: true, ...json(requestSchema(GateEvaluateSchema)) },
          responses: {
            "200": ok("The verdict per span", responseSchema(GateEvaluateResultSchema)),
            ...errors(400, 401, 403, 413, 422, 429),
          },
        },
      },
      "/api/v1/reclamations": {
        post: {
          summary: "Ask to replace stored spans with a summary; the gate decides per span",
          requestBody: { required: true, ...json(requestSchema(ReclamationSchema)) },
          responses: {
            "200": ok("The verdict per span and the summary span recorded", responseSchema(ReclamationResultSchema)),
            ...errors(400, 401, 403, 404, 409, 413, 422, 429),
          },
        },
      },
      "/api/v1/imports": {
        post: {
          summary: `Import a transcript file (format in ?format= or detected); files over ${LIMITS.syncImportBytes} bytes run as a job`,
          parameters: [
            {
              name: "format",
              in: "query",
              required: false,
              schema: { enum: ["claude-code", "codex", "openhands", "otel-genai"] },
            },
          ],
          requestBody: {
            required: true,
            content: { "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream" } } },
          },
          responses: {
            "200": ok(
              "The import's outcome: sessions, spans, classes, refusals, skipped lines, and importId (the import's row)",
              {
                type: "object",
                properties: {
                  importId: { type: "string", format: "uuid", description: "GET /api/v1/imports/{id} reads the import back" },
                },
              },
            ),
            "202": ok(
              "The file is imported as a background job (at most 2 run at once per server; the others wait in order): poll its Location",
              {
                type: "object",
                properties: {
                  job: {
                    type: "object",
                    properties: {
                      id: { type: "string" },
                      status: { enum: ["QUEUED", "RUNNING", "DONE", "FAILED"] },
                      byteLength: { type: "integer" },
                      queuePosition: { type: ["integer", "null"], description: "1 = next; null unless QUEUED" },
                    },
                  },
                },
              },
            ),
            ...errors(401, 403, 413, 422),
            "429": {
              description:
                "Too many requests for this key (RATE_LIMITED), or the import queue is full for this project or this server (IMPORT_QUEUE_FULL, before the file is read); see Retry-After",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
            },
          },
        },
      },
      "/api/v1/imports/{id}": {
        get: {
          summary: "An import job's progress, then its outcome or error",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
          responses: {
            "200": ok("The job's status (QUEUED with its queuePosition, RUNNING with progress), then its outcome or error", {
              type: "object",
              properties: {
                id: { type: "string" },
                status: { enum: ["QUEUED", "RUNNING", "DONE", "FAILED"] },
                queuePosition: { type: ["integer", "null"] },
                spansDone: { type: "integer" },
                spansTotal: { type: "integer" },
              },
            }),
            ...errors(401, 404, 429),
          },
        },
      },
      ...searchPaths,
      ...evidenceQuestionPaths,
      ...savedQuestionPaths,
      "/api/v1/retention/policy": {
        get: {
          summary: "The retention policy in force and its version",
          responses: {
            "200": ok("The policy and its version (0: never saved as a version)", responseSchema(RetentionPolicyResultSchema)),
            ...errors(401, 403, 429),
          },
        },
        put: {
          summary:
            "Save a change to the policy as the next version (fields left out keep their values); a change that shortens a TTL " +
            "or the horizon, or narrows the system-config list, needs a reason (422 naming reason); held originals are re-dated to the new TTLs",
          requestBody: { required: true, ...json(requestSchema(RetentionPolicyPutSchema)) },
          responses: {
            "200": ok("The saved policy, its version and the field-by-field changes", responseSchema(RetentionPolicySavedSchema)),
            ...errors(400, 401, 403, 409, 413, 422, 429),
          },
        },
      },
      "/api/v1/retention/simulations": {
        post: {
          summary:
            "What-if for a proposed policy (fields left out keep their current values) over the next horizonDays days (at most 3650): " +
            "originals deleted, bytes freed and stored by class, spans turning EXPIRING and LOST by class and the sessions they belong to " +
            "(a bounded list with a truncation flag), evidence answers that change, and the " +
            "gate's decisions of the last 30 days replayed; the current policy's figures beside them. Stores nothing",
          requestBody: { required: true, ...json(requestSchema(RetentionSimulationSchema)) },
          responses: {
            "200": ok(
              "Day by day figures, affected answers and replayed refusals",
              responseSchema(RetentionSimulationResultSchema),
            ),
            ...errors(400, 401, 403, 413, 422, 429),
          },
        },
      },
      "/api/v1/mcp": {
        post: {
          summary: "MCP over streamable HTTP (stateless; JSON responses)",
          description:
            "JSON-RPC messages of the Model Context Protocol, one a POST, no session. Revisions 2025-11-25, 2025-06-18, " +
            "2025-03-26, 2024-11-05 and 2024-10-07 (negotiated by initialize, then named in MCP-Protocol-Version), and " +
            "the stateless revision 2026-07-28: no initialize, server/discover says what the server has, and every " +
            "request carries io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities in " +
            "params._meta and the headers MCP-Protocol-Version, Mcp-Method and, for tools/call, Mcp-Name. Tools, all " +
            "read-only: evidence_query (the answer as POST /api/v1/evidence/query returns it, or a job), evidence_job " +
            "(a job as GET /api/v1/evidence/jobs/{id} returns it), get_original, side_effect_ledger, gate_check, " +
            "search_transcripts; errors are tool errors carrying this API's codes. The key's project scopes every tool.",
          parameters: [
            {
              name: "MCP-Protocol-Version",
              in: "header",
              required: false,
              description: "The revision the request is of; required on every 2026-07-28 request",
              schema: { type: "string", example: "2026-07-28" },
            },
            {
              name: "Mcp-Method",
              in: "header",
              required: false,
              description: "2026-07-28: the request's JSON-RPC method, required",
              schema: { type: "string", example: "tools/call" },
            },
            {
              name: "Mcp-Name",
              in: "header",
              required: false,
              description: "2026-07-28: the tool a tools/call names, required on those",
              schema: { type: "string", example: "evidence_query" },
            },
          ],
          requestBody: { required: true, ...json({ type: "object", description: "A JSON-RPC request or notification" }) },
          responses: {
            "200": ok("The JSON-RPC response", { type: "object" }),
            "202": { description: "A notification, accepted" },
            "400": {
              description:
                "A JSON-RPC error: a revision not served (with the revisions that are), headers that disagree with " +
                "the body or are missing (-32020), a 2026-07-28 envelope missing or malformed (-32602)",
              ...json({ type: "object" }),
            },
            ...errors(401, 403, 429),
          },
        },
      },
      "/api/v1/hooks/sync": {
        post: {
          summary: "A compaction hook's round trip (custodian hook ...)",
          description:
            "The transcript's spans the hook has not sent yet (same fields as span batches, plus sourceLine), the records it " +
            "skipped, the compactions it records (linked as observed), and optionally the gate's dry run over the session's " +
            "verbatim evidence spans (gate: true) and the evidence ledger (ledgerLimit).",
          requestBody: {
            required: true,
            ...json({
              type: "object",
              required: ["session"],
              properties: {
                session: z.toJSONSchema(SessionCreateSchema, { io: "input" }),
                spans: { type: "array", maxItems: LIMITS.maxSpansPerBatch, items: { type: "object" } },
                skipped: {
                  type: "array",
                  items: { type: "object", properties: { line: { type: "integer" }, reason: { type: "string" } } },
                },
                linesRead: {
                  type: "integer",
                  minimum: 0,
                  description: "Lines of the transcript read: an earlier sync's end-of-file mark before them no longer stands",
                },
                compactions: {
                  type: "array",
                  items: {
                    type: "object",
                    properties: {
                      summarySeq: { type: "integer" },
                      replacedSeqs: { type: "array", items: { type: "integer" } },
                      occurredAt: { type: "string", format: "date-time" },
                    },
                  },
                },
                gate: { type: "boolean" },
                ledgerLimit: { type: "integer", minimum: 1, maximum: 500 },
                serverUrl: { type: "string", format: "uri" },
              },
            }),
          },
          responses: {
            "200": ok("The session, the next seq to send, and what was asked for", {
              type: "object",
              properties: {
                sessionId: { type: "string", format: "uuid" },
                nextSeq: { type: "integer" },
                imported: { type: "integer" },
                linkedCompactions: { type: "integer" },
                gate: { type: "object" },
                ledger: { type: "object" },
                ledgerText: { type: "string" },
              },
            }),
            ...errors(401, 403, 409, 413, 422, 429),
          },
        },
      },
      ...claudeCodeHookPaths,
      ...otlpPaths,
      "/api/v1/spans/{id}/original": {
        get: {
          summary: "The verbatim bytes of a span's original",
          description:
            "Streamed as the client reads them. A Range header with one range (bytes=first-last, bytes=first- or " +
            "bytes=-suffix) gets those bytes (206, Content-Range); another unit or several ranges get the whole original.",
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } },
            { name: "Range", in: "header", required: false, schema: { type: "string", examples: ["bytes=0-65535"] } },
          ],
          responses: {
            "200": {
              description: "The bytes; X-Custodian-Sha256 and Repr-Digest carry their sha256",
              content: {
                "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream" } },
              },
            },
            "206": {
              description: "The range asked for; Content-Range places it, X-Custodian-Sha256 is the whole original's sha256",
              content: {
                "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream" } },
              },
            },
            ...errors(401, 403, 404, 410, 416, 429),
          },
        },
      },
    },
  };
}

/**
 * Custodian's MCP server: read-only tools over one project's evidence, for agents and their
 * operators. Served over streamable HTTP by ./route.ts (and over stdio by `custodian mcp`, which
 * relays to that route). Errors are tool errors carrying the API's codes.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { afterResponse } from "@/app/after-response";
import { EvidenceQuerySchema, SummarySchema } from "@/lib/api/schemas";
import { AppError } from "@/lib/core/errors";
import { describeOutcomes } from "@/lib/evidence/outcomes";
import { decisionJson } from "@/lib/server/gate";
import { gateCheck, LEDGER_DEFAULT_LIMIT, LEDGER_MAX_LIMIT, ledgerText, sideEffectLedger } from "@/lib/server/integrations";
import { readOriginal } from "@/lib/server/provenance";
import { askEvidenceQuestion, citationJson } from "@/lib/server/questions";

export interface McpCaller {
  projectId: string;
  /** How the caller appears in decisions: "api-key:<prefix>". */
  label: string;
}

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
/** Citations and blockers per call: an answer can cite thousands of spans, more than a model's context holds. */
const PAGE_MAX = 50;
/** How far an agent may page: the answer is kept up to the page's end while it is read. */
const OFFSET_MAX = 100_000;

/** The API's question (without its HTTP paging and async), and which page of the lists to return. */
const McpQuerySchema = z.object({
  question: EvidenceQuerySchema.shape.question,
  scope: EvidenceQuerySchema.shape.scope,
  offset: z.number().int().min(0).max(OFFSET_MAX).default(0),
  limit: z.number().int().min(1).max(PAGE_MAX).default(PAGE_MAX),
});

function result(structured: Record<string, unknown>, text?: string): CallToolResult {
  return { content: [{ type: "text", text: text ?? JSON.stringify(structured) }], structuredContent: structured };
}

/** An error as the API would answer it, as a tool error the model can read. */
function toolError(error: unknown): CallToolResult {
  const body =
    error instanceof AppError
      ? error.toJSON()
      : error instanceof z.ZodError
        ? {
            error: {
              code: "VALIDATION_FAILED",
              message: error.issues.map((i) => `${i.path.join(".") || "(input)"}: ${i.message}`).join("; "),
            },
          }
        : { error: { code: "INTERNAL", message: "Internal error" } };
  return {
    isError: true,
    content: [{ type: "text", text: `${body.error.code}: ${body.error.message}` }],
    structuredContent: body,
  };
}

async function run(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof AppError) && !(error instanceof z.ZodError)) console.error("MCP tool failed", error);
    return toolError(error);
  }
}

export function custodianMcpServer(caller: McpCaller): McpServer {
  const server = new McpServer({ name: "custodian", version: "1" }, { capabilities: { tools: {} } });

  server.registerTool(
    "evidence_query",
    {
      title: "Ask an evidence question",
      description:
        "Did the agent do X? Answers YES (with citations to verbatim bytes), NO (only over complete evidence) or " +
        "INSUFFICIENT_EVIDENCE (with the spans that block a proof). question: {canned: id} (e.g. modified-system-config) " +
        `or {predicate: {...}}; scope: {sessionIds, from, to}. Citations and blockers come ${PAGE_MAX} at a time from ` +
        "offset (default 0); when more remain, `next` holds the offset to ask with for the rest.",
      inputSchema: McpQuerySchema.shape,
      annotations: { title: "Evidence question", ...READ_ONLY },
    },
    (input) =>
      run(async () => {
        const { offset, limit, ...query } = McpQuerySchema.parse(input);
        const body = EvidenceQuerySchema.parse(query);
        const ask = (window?: number) =>
          askEvidenceQuestion({ projectId: caller.projectId, question: body.question, scope: body.scope }, new Date(), {
            keepVerdicts: afterResponse,
            ...(window ? { window } : {}),
          });
        let answer = await ask();
        // The answer keeps its first citations and blockers (a large window); a page past them asks
        // again keeping as many as the page reaches.
        const end = offset + limit;
        if (
          answer.citations.length < Math.min(end, answer.citationCount) ||
          answer.blockers.length < Math.min(end, answer.blockerCount)
        )
          answer = await ask(end);
        const more = end < Math.max(answer.citationCount, answer.blockerCount);
        return result({
          answer: answer.answer,
          question: { id: answer.question.id, title: answer.question.title },
          citations: answer.citations.slice(offset, end).map(citationJson),
          citationCount: answer.citationCount,
          blockers: answer.blockers.slice(offset, end).map((b) => ({
            sessionId: b.sessionId,
            spanId: b.spanId,
            seq: b.seq,
            class: b.class,
            provenance: b.provenance,
            reason: b.reason,
          })),
          blockerCount: answer.blockerCount,
          offset,
          next: more ? { offset: end } : null,
          outcomes: answer.outcomes,
          outcomeSummary: describeOutcomes(answer.outcomes),
          scopeComplete: answer.scopeComplete,
        });
      }),
  );

  server.registerTool(
    "get_original",
    {
      title: "Fetch a span's original",
      description:
        "The verbatim bytes Custodian holds for a span (all, or byteStart..byteEnd, end exclusive), with the sha256 " +
        "of the whole original and of the range. Text when the bytes are UTF-8, else base64.",
      inputSchema: {
        spanId: z.uuid(),
        byteStart: z.number().int().min(0).optional(),
        byteEnd: z.number().int().min(0).optional(),
      },
      annotations: { title: "Original bytes", ...READ_ONLY },
    },
    ({ spanId, byteStart, byteEnd }) =>
      run(async () => {
        const original = await readOriginal(caller.projectId, spanId);
        const start = byteStart ?? 0;
        const end = Math.min(byteEnd ?? original.bytes.byteLength, original.bytes.byteLength);
        if (start > end)
          throw new AppError("VALIDATION_FAILED", "byteStart is past byteEnd or the end of the original", {
            fields: [{ path: "byteStart", message: `the original has ${original.bytes.byteLength} bytes` }],
          });
        const bytes = original.bytes.subarray(start, end);
        let text: string | undefined;
        try {
          text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
        } catch {
          text = undefined;
        }
        const { createHash } = await import("node:crypto");
        const structured = {
          spanId: original.spanId,
          sessionId: original.sessionId,
          sha256: original.sha256,
          byteLength: original.bytes.byteLength,
          byteStart: start,
          byteEnd: end,
          rangeSha256: createHash("sha256").update(bytes).digest("hex"),
          encoding: text === undefined ? "base64" : "utf-8",
          ...(text === undefined ? { base64: Buffer.from(bytes).toString("base64") } : { text }),
          pinned: original.pinned,
          expiresAt: original.expiresAt?.toISOString() ?? null,
        };
        return result(structured, text ?? Buffer.from(bytes).toString("base64"));
      }),
  );

  server.registerTool(
    "side_effect_ledger",
    {
      title: "Side-effect ledger",
      description:
        "What the agent did that changed something in a session (files written or deleted, commands and their " +
        "outcomes, packages, network mutations), most consequential kept, most recent first, each with its span id.",
      inputSchema: {
        session: z.string().min(1).max(512).describe("the session's id, or its runtime's session id"),
        limit: z.number().int().min(1).max(LEDGER_MAX_LIMIT).default(LEDGER_DEFAULT_LIMIT),
      },
      annotations: { title: "Side-effect ledger", ...READ_ONLY },
    },
    ({ session, limit }) =>
      run(async () => {
        const ledger = await sideEffectLedger(caller.projectId, session, limit);
        return result({ ...ledger }, ledgerText(ledger));
      }),
  );

  server.registerTool(
    "gate_check",
    {
      title: "Ask the gate",
      description:
        "Would the gate let these stored spans (of one session) be replaced by this summary? Verdicts per span with " +
        "the cell and the reason; a dry run, nothing is recorded.",
      inputSchema: { spanIds: z.array(z.uuid()).min(1).max(1000), summary: SummarySchema },
      annotations: { title: "Gate check", ...READ_ONLY },
    },
    ({ spanIds, summary }) =>
      run(async () => {
        const outcome = await gateCheck(caller.projectId, spanIds, SummarySchema.parse(summary), caller.label);
        return result({ results: outcome.decisions.map(decisionJson) });
      }),
  );

  return server;
}

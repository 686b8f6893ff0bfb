/**
 * Custodian's MCP server: read-only tools over one project's evidence, for agents and their
 * operators. Served over streamable HTTP by ./route.ts (and over stdio by `custodian mcp`, which
 * relays to that route): to clients of the `initialize` revisions by the server below, to clients of
 * the stateless revision (2026-07-28) by ./stateless.ts, both from the same tools. Errors are tool
 * errors carrying the API's codes.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { afterResponse } from "@/app/after-response";
import { EvidenceQuestionSchema, EvidenceScopeSchema } from "@/lib/api/evidence-schemas";
import { SummarySchema } from "@/lib/api/schemas";
import { decisionJson } from "@/lib/server/gate";
import { gateCheck, LEDGER_DEFAULT_LIMIT, LEDGER_MAX_LIMIT, ledgerText, sideEffectLedger } from "@/lib/server/integrations";
import { answerOrQueue, readQuestionJob } from "@/lib/server/questions";
import { getOriginalTool } from "./get-original";
import { searchTranscriptsTool } from "./search";
import { type CustodianTool, defineTool, SERVER_INFO, serveTools, toolResult as result } from "./tool-calls";

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

/** The API's question and scope, one page of both lists (not the API's two windows), and "async". */
const McpQuerySchema = z.object({
  question: EvidenceQuestionSchema,
  scope: EvidenceScopeSchema,
  offset: z.number().int().min(0).max(OFFSET_MAX).default(0),
  limit: z.number().int().min(1).max(PAGE_MAX).default(PAGE_MAX),
  async: z.boolean().optional(),
});

/** The tools, one definition for every protocol revision and both transports. */
export function custodianTools(caller: McpCaller): CustodianTool[] {
  return [
    evidenceQuery(caller),
    evidenceJob(caller),
    getOriginalTool(caller),
    sideEffectLedgerTool(caller),
    gateCheckTool(caller),
    searchTranscriptsTool(caller),
  ] as CustodianTool[];
}

/** The server for the revisions negotiated by `initialize` (2024-10-07 to 2025-11-25). */
export function custodianMcpServer(caller: McpCaller): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} } });
  serveTools(server, custodianTools(caller));
  return server;
}

const evidenceQuery = (caller: McpCaller) =>
  defineTool({
    name: "evidence_query",
    title: "Ask an evidence question",
    description:
      "Did the agent do X? Answers YES (with citations to verbatim bytes), NO (only over complete evidence) or " +
      "INSUFFICIENT_EVIDENCE (with the spans that block a proof), as POST /api/v1/evidence/query does. question: " +
      "{canned: id} (e.g. modified-system-config) or {predicate: {...}}; scope: {sessionIds, from, to} (ISO 8601, to " +
      `exclusive). Citations and blockers come ${PAGE_MAX} at a time from offset (default 0); while more remain, ` +
      "pages.citations.next and pages.blockers.next hold the offset to ask with. A question still judging after 5 " +
      "seconds (or asked with async: true) returns {job} instead: poll it with evidence_job until DONE.",
    annotations: { title: "Evidence question", ...READ_ONLY },
    input: McpQuerySchema,
    call: async ({ offset, limit, question, scope, async }) => {
      const window = { offset, limit };
      const asked = await answerOrQueue({ projectId: caller.projectId, question, scope }, caller.label, {
        pages: { citations: window, blockers: window },
        ...(async ? { async: true } : {}),
        keepVerdicts: afterResponse,
      });
      return "answer" in asked ? result({ ...asked.answer }) : result({ job: asked.job });
    },
  });

const evidenceJob = (caller: McpCaller) =>
  defineTool({
    name: "evidence_job",
    title: "Poll an evidence question's job",
    description:
      "A question evidence_query handed to a job, as GET /api/v1/evidence/jobs/{id} returns it: RUNNING with " +
      "progress (sessionsDone of sessionsTotal, candidateSpans), DONE with the answer evidence_query would have " +
      "returned, or FAILED with the error. A job is kept a day after it ends.",
    annotations: { title: "Evidence question job", ...READ_ONLY },
    input: z.object({ id: z.uuid() }),
    call: async ({ id }) => result({ ...(await readQuestionJob(caller.projectId, id)) }),
  });

const sideEffectLedgerTool = (caller: McpCaller) =>
  defineTool({
    name: "side_effect_ledger",
    title: "Side-effect ledger",
    description:
      "What the agent did that changed something in a session (files written or deleted, commands and their " +
      "outcomes, packages, network mutations), most consequential kept, most recent first, each with its span id.",
    annotations: { title: "Side-effect ledger", ...READ_ONLY },
    input: z.object({
      session: z.string().min(1).max(512).describe("the session's id, or its runtime's session id"),
      limit: z.number().int().min(1).max(LEDGER_MAX_LIMIT).default(LEDGER_DEFAULT_LIMIT),
    }),
    call: async ({ session, limit }) => {
      const ledger = await sideEffectLedger(caller.projectId, session, limit);
      return result({ ...ledger }, ledgerText(ledger));
    },
  });

const gateCheckTool = (caller: McpCaller) =>
  defineTool({
    name: "gate_check",
    title: "Ask the gate",
    description:
      "Would the gate let these stored spans (of one session) be replaced by this summary? Verdicts per span with " +
      "the cell and the reason; a dry run, nothing is recorded.",
    annotations: { title: "Gate check", ...READ_ONLY },
    input: z.object({ spanIds: z.array(z.uuid()).min(1).max(1000), summary: SummarySchema }),
    call: async ({ spanIds, summary }) => {
      const outcome = await gateCheck(caller.projectId, spanIds, summary, caller.label);
      return result({ results: outcome.decisions.map(decisionJson) });
    },
  });

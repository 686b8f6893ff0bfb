import { z } from "zod";
import { TOOL_OUTCOMES } from "@/lib/evidence/outcomes";
import { EVIDENTIAL_CLASSES, PROVENANCE_STATUSES, SPAN_KINDS, TRANSCRIPT_STATES } from "@/lib/evidence/types";
import { pageParam, parseListQuery, type RawSearchParams } from "./list-query";

/** A transcript in order (seq, summaries after) or turned round (newest first). */
export const SPAN_SORTS = ["seq", "seq-desc"] as const;

/** The agent filter in the URL: the main agent, or a subagent by id, prefixed so no id passes for "main". */
const agentParam = z
  .string()
  .max(200)
  .regex(/^(main|sub:[^\u0000]+)$/, "Expected main or sub:<agent id>");

/**
 * A session's span list as its URL carries it: the page, the order by seq, and filters on kind,
 * class, provenance status, transcript state, producing agent and call outcomes (repeated).
 */
export const SpanListQuerySchema = z.object({
  page: pageParam,
  sort: z.enum(SPAN_SORTS).default("seq"),
  kind: z.enum(SPAN_KINDS).optional(),
  class: z.enum(EVIDENTIAL_CLASSES).optional(),
  provenance: z.enum(PROVENANCE_STATUSES).optional(),
  state: z.enum(TRANSCRIPT_STATES).optional(),
  agent: agentParam.optional(),
  outcome: z.array(z.enum(TOOL_OUTCOMES)).max(TOOL_OUTCOMES.length).optional(),
});

export type SpanListQuery = z.output<typeof SpanListQuerySchema>;
export const SPAN_LIST_DEFAULTS = { page: 1, sort: "seq" } as const;

export function parseSpanListQuery(raw: RawSearchParams | URLSearchParams): SpanListQuery {
  return parseListQuery(SpanListQuerySchema, raw, "The span list filter", ["outcome"]);
}

/** The agent a parsed `agent` value names: null for the main agent, a subagent's id, undefined for all. */
export function agentOf(value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  return value === "main" ? null : value.slice("sub:".length);
}

/**
 * A project's refusals and compactions done without asking, as one list of rows: one row per gate
 * request the gate refused spans in (its refusals beneath it, never split across pages), one per
 * compaction done without asking. Filtered by cell, requester, days and session, newest or oldest
 * first, and paged by a keyset cursor: a page starts after (or ends before) a row's key
 * (time, session, request), so refusals arriving while someone reads do not move the pages after
 * the first.
 */
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { Prisma } from "@/lib/db/generated/client";
import { EVIDENTIAL_CLASSES, PROVENANCE_STATUSES } from "@/lib/evidence/types";
import { exactText, parseListQuery, type RawSearchParams } from "./list-query";
import { dayParam, rangeParam, timeWindow } from "@/lib/core/time-range";

/** Rows (gate requests and compactions) on one page of the refusals list. */
export const REFUSAL_PAGE_SIZE = 50;
/** What the list shows: refusals, compactions done without asking the gate, or both. */
export const FEED_SHOWS = ["both", "refusals", "compactions"] as const;
export const REFUSAL_SORTS = ["newest", "oldest"] as const;
const DAY_MS = 86_400_000;

/** Where a page starts or ends: a row's place in the list's order. */
export interface RefusalListKey {
  /** The row's time, ISO with milliseconds (as stored). */
  at: string;
  sessionId: string;
  /** The gate request's id (a refusal of no known request: its own), or the compaction's. */
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function encodeRefusalCursor(key: RefusalListKey): string {
  return Buffer.from(JSON.stringify([key.at, key.sessionId, key.id])).toString("base64url");
}

/** The key a cursor names, or null when it is not one this list wrote. */
export function decodeRefusalCursor(text: string): RefusalListKey | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    if (!Array.isArray(value) || value.length !== 3) return null;
    const [at, sessionId, id] = value as unknown[];
    if (typeof at !== "string" || Number.isNaN(Date.parse(at)) || !/Z$/.test(at)) return null;
    if (typeof sessionId !== "string" || !UUID.test(sessionId) || typeof id !== "string" || !UUID.test(id)) return null;
    return { at, sessionId, id };
  } catch {
    return null;
  }
}

const cursorParam = z
  .string()
  .max(400)
  .refine((text) => decodeRefusalCursor(text) !== null, "Expected a cursor from this list's own links");

export const RefusalListQuerySchema = z
  .object({
    /** The page after this row (in the list's order); `before`: the page before it. */
    after: cursorParam.optional(),
    before: cursorParam.optional(),
    sort: z.enum(REFUSAL_SORTS).default("newest"),
    show: z.enum(FEED_SHOWS).default("both"),
    session: z.uuid({ error: "Expected a session id" }).optional(),
    cellClass: z.enum(EVIDENTIAL_CLASSES).optional(),
    cellProvenance: z.enum(PROVENANCE_STATUSES).optional(),
    /** Who asked, exactly as recorded (a key's label, a person, an importer). */
    requester: exactText(320).optional(),
    from: dayParam.optional(),
    to: dayParam.optional(),
    /** The project views' time range (time-range.ts); `from` wins when both are given. */
    range: rangeParam.optional(),
    /** The last this many days (older links); `from` and `range` win when given. */
    days: z.coerce.number({ error: "Expected a number of days" }).int().min(1).max(3650).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.from > q.to)
      ctx.addIssue({ code: "custom", path: ["to"], message: "The range ends before it starts" });
    if (q.after && q.before)
      ctx.addIssue({ code: "custom", path: ["before"], message: "A page is after a row or before one, not both" });
  });

export type RefusalListQuery = z.output<typeof RefusalListQuerySchema>;
export const REFUSAL_LIST_DEFAULTS = { sort: "newest", show: "both" } as const;

export function parseRefusalListQuery(raw: RawSearchParams | URLSearchParams): RefusalListQuery {
  return parseListQuery(RefusalListQuerySchema, raw, "The refusals filter");
}

/** The query's cursor as a key: which way it points and where. */
export function refusalCursor(query: RefusalListQuery): { key: RefusalListKey; before: boolean } | null {
  const text = query.before ?? query.after;
  if (!text) return null;
  const key = decodeRefusalCursor(text);
  // The schema let only decodable cursors through.
  if (!key) throw new AppError("VALIDATION_FAILED", "The refusals filter is not valid: after");
  return { key, before: query.before !== undefined };
}

/** The instants the query's days cover: [since, until). */
export function refusalWindow(query: RefusalListQuery, now: Date): { since?: Date; until?: Date } {
  const { since, until } = timeWindow(query, now);
  return { since: since ?? (query.days ? new Date(now.getTime() - query.days * DAY_MS) : undefined), until };
}

/**
 * A refusal's gate request as the list groups by it, a column of refusal_event_request_idx
 * (migration 20261207060000_refusal_request_walk), so the planner walks that index in order.
 */
export const REQUEST_KEY = Prisma.raw("r.request_id");

/** Conditions on refusal_event (alias r), the project first; null when the list shows no refusals. */
export function refusalWhereSql(projectId: string, query: RefusalListQuery, now: Date): Prisma.Sql | null {
  if (query.show === "compactions") return null;
  const { since, until } = refusalWindow(query, now);
  const c: Prisma.Sql[] = [Prisma.sql`r.project_id = ${projectId}::uuid`];
  if (query.session) c.push(Prisma.sql`r.session_id = ${query.session}::uuid`);
  if (query.cellClass) c.push(Prisma.sql`r.cell_class = ${query.cellClass}::"EvidentialClass"`);
  if (query.cellProvenance) c.push(Prisma.sql`r.cell_provenance = ${query.cellProvenance}::"ProvenanceStatus"`);
  if (query.requester) c.push(Prisma.sql`r.requester = ${query.requester}`);
  if (since) c.push(Prisma.sql`r.occurred_at >= ${since}`);
  if (until) c.push(Prisma.sql`r.occurred_at < ${until}`);
  return Prisma.join(c, " and ");
}

/** Conditions on compaction (alias c): done without asking, in the project; a cell filter keeps to refusals. */
export function compactionWhereSql(projectId: string, query: RefusalListQuery, now: Date): Prisma.Sql | null {
  if (query.show === "refusals" || query.cellClass || query.cellProvenance) return null;
  const { since, until } = refusalWindow(query, now);
  const c: Prisma.Sql[] = [Prisma.sql`c.project_id = ${projectId}::uuid`, Prisma.sql`c.asked = false`];
  if (query.session) c.push(Prisma.sql`c.session_id = ${query.session}::uuid`);
  if (query.requester) c.push(Prisma.sql`c.requester = ${query.requester}`);
  if (since) c.push(Prisma.sql`c.occurred_at >= ${since}`);
  if (until) c.push(Prisma.sql`c.occurred_at < ${until}`);
  return Prisma.join(c, " and ");
}

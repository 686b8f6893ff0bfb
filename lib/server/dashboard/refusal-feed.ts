import { z } from "zod";
import { parseWith } from "@/lib/core/validation";
import { EVIDENTIAL_CLASSES, PROVENANCE_STATUSES } from "@/lib/evidence/types";
import { type CompactionRow, unaskedCompactionsSince } from "@/lib/server/compactions";
import { listRefusals, refusalCountsByDay, type RefusalDayCount, type RefusalRow } from "./refusals";

const DAY_MS = 86_400_000;
export const FEED_DAYS = 30;
/** What the feed shows: refusals, compactions done without asking the gate, or both. */
export const FEED_SHOWS = ["both", "refusals", "compactions"] as const;

export const RefusalFeedFilterSchema = z
  .object({
    session: z.uuid().optional(),
    cellClass: z.enum(EVIDENTIAL_CLASSES).optional(),
    cellProvenance: z.enum(PROVENANCE_STATUSES).optional(),
    days: z.coerce.number().int().min(1).max(365).default(FEED_DAYS),
    show: z.enum(FEED_SHOWS).default("both"),
  })
  .strict();

export type RefusalFeedFilter = z.input<typeof RefusalFeedFilterSchema>;

export interface RefusalFeed {
  events: RefusalRow[];
  /** Compactions done without asking, newest first: events of their own, merged by time with the refusals. */
  compactions: CompactionRow[];
  counts: RefusalDayCount[];
  days: number;
  asOf: string;
}

/** A project's Refusals page: the newest events and per-day counts for the same filter and window. */
export async function refusalFeed(
  projectId: string,
  raw: Record<string, string | undefined>,
  now = new Date(),
): Promise<RefusalFeed> {
  const cleaned = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== ""));
  const filter = parseWith(RefusalFeedFilterSchema, cleaned, "The filter");
  const since = new Date(now.getTime() - filter.days * DAY_MS);
  const common = {
    projectId,
    sessionId: filter.session,
    cellClass: filter.cellClass,
    cellProvenance: filter.cellProvenance,
    since,
  };
  // A compaction has no cell: a cell filter keeps to refusals.
  const withCompactions = filter.show !== "refusals" && !filter.cellClass && !filter.cellProvenance;
  const [events, counts, compactions] = await Promise.all([
    filter.show === "compactions" ? [] : listRefusals({ ...common, limit: 200 }),
    refusalCountsByDay(common),
    withCompactions ? unaskedCompactionsSince(projectId, { since, sessionId: filter.session, limit: 200 }) : [],
  ]);
  return { events, compactions, counts, days: filter.days, asOf: now.toISOString() };
}

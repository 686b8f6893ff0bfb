import { EVIDENTIAL_CLASSES, type EvidentialClass } from "@/lib/evidence/types";
import { timeWindow } from "@/lib/core/time-range";
import { countSessionsAtRiskAndLost } from "@/lib/server/dashboard";
import { storageFigures } from "@/lib/server/retention";
import { type AtRiskAhead, aheadWindow, atRiskAhead, atRiskAheadSql } from "./at-risk-ahead";
import {
  evidenceLostPerBucket,
  expiriesPerDay,
  overviewStatements,
  refusalsPerBucket,
  unaskedCompactionsPerBucket,
} from "./queries";
import { DAY_MS, type OverviewDays, type OverviewRange, type OverviewWindow, overviewWindow } from "./range";

type ByClass = Record<EvidentialClass, { originals: number; bytes: number }>;

/**
 * What an ops team watches on a project's first page. Every series is sparse (only buckets with
 * something in them, oldest first) and carries its totals; times are ISO strings so the same
 * object is rendered on the server and polled as JSON.
 */
export interface ProjectOverview {
  window: OverviewWindow;
  refusals: { series: Array<{ at: string; count: number }>; total: number };
  unaskedCompactions: {
    series: Array<{ at: string; count: number; spansReplaced: number }>;
    total: number;
    spansReplaced: number;
    /** Compactions in the same window that did ask the gate. */
    askedTotal: number;
  };
  /**
   * Now, in the sessions active in the range (the sessions list's range, which the figure links to
   * with the same range): evidence-bearing spans whose held original expires before their evidence
   * horizon, and the sessions holding them, counted by the list's own query.
   */
  atRisk: { spans: number; sessions: number };
  /** The same for evidence lost now (the grid's red cells): what the list's "lost" filter shows. */
  lostNow: { spans: number; sessions: number };
  /**
   * Spans at risk over time: a projection over as many buckets ahead as the range looks back, if
   * nobody pins or extends (their past is not kept; see at-risk-ahead.ts), of the spans of the
   * sessions active in the range, as the retention page's at-risk list shows them for that range.
   */
  atRiskAhead: AtRiskAhead;
  evidenceLost: { series: Array<{ at: string; deleted: number; damaged: number }>; deleted: number; damaged: number };
  /** Today and the six days after it (UTC), whatever the range: what to pin or extend now. */
  expiringThisWeek: {
    window: { bucket: "day"; from: string; buckets: number };
    series: Array<{ at: string; originals: number; bytes: number }>;
    byClass: ByClass;
    total: { originals: number; bytes: number };
  };
  /** Bytes held now, per evidential class (the retention page's storage figures). */
  storage: { byClass: ByClass; total: { originals: number; bytes: number } };
}

const EXPIRY_DAYS = 7;

function overviewScope(projectId: string, range: OverviewRange, now: Date, days?: OverviewDays) {
  const today = now.getTime() - (now.getTime() % DAY_MS);
  // The sessions list's range, as the figures' links carry it.
  const listRange = days ? { from: days.from, to: days.to } : { range };
  return {
    scope: { projectId, window: overviewWindow(range, now, days) },
    listRange,
    /** The sessions active in the range, whose spans the at-risk projection follows. */
    activeSessions: timeWindow(listRange, now),
    today,
    expiryEnd: new Date(today + EXPIRY_DAYS * DAY_MS),
  };
}

/** The statements behind an overview, by name: what the pages benchmark EXPLAINs. */
export function projectOverviewStatements(projectId: string, range: OverviewRange, now: Date, days?: OverviewDays) {
  const { scope, activeSessions, expiryEnd } = overviewScope(projectId, range, now, days);
  return {
    ...overviewStatements(scope, now, expiryEnd),
    "spans at risk ahead": atRiskAheadSql(projectId, aheadWindow(scope.window), activeSessions, now),
  };
}

export async function projectOverview(
  projectId: string,
  { range, days, now = new Date() }: { range: OverviewRange; days?: OverviewDays; now?: Date },
): Promise<ProjectOverview> {
  const { scope, listRange, activeSessions, today, expiryEnd } = overviewScope(projectId, range, now, days);
  // Only the class figures of the storage read are used (one day of growth, no session list); they
  // come from the trigger-kept span_storage_count, a few rows per session, not from the spans.
  const [refusals, compactions, lost, { atRisk, lost: lostNow }, ahead, expiries, storage] = await Promise.all([
    refusalsPerBucket(scope),
    unaskedCompactionsPerBucket(scope),
    evidenceLostPerBucket(scope),
    countSessionsAtRiskAndLost(projectId, listRange, now),
    atRiskAhead(projectId, scope.window, activeSessions),
    expiriesPerDay(projectId, now, expiryEnd),
    storageFigures(projectId, now, 1, 0),
  ]);

  const perDay = new Map<string, { at: string; originals: number; bytes: number }>();
  const byClass = Object.fromEntries(EVIDENTIAL_CLASSES.map((c) => [c, { originals: 0, bytes: 0 }])) as ByClass;
  const expiringTotal = { originals: 0, bytes: 0 };
  for (const e of expiries) {
    const day = perDay.get(e.at) ?? { at: e.at, originals: 0, bytes: 0 };
    day.originals += e.originals;
    day.bytes += e.bytes;
    perDay.set(e.at, day);
    byClass[e.class].originals += e.originals;
    byClass[e.class].bytes += e.bytes;
    expiringTotal.originals += e.originals;
    expiringTotal.bytes += e.bytes;
  }

  const sum = <T>(rows: T[], pick: (r: T) => number) => rows.reduce((a, r) => a + pick(r), 0);
  return {
    window: scope.window,
    refusals: { series: refusals, total: sum(refusals, (r) => r.count) },
    unaskedCompactions: {
      series: compactions.series,
      total: sum(compactions.series, (r) => r.count),
      spansReplaced: sum(compactions.series, (r) => r.spansReplaced),
      askedTotal: compactions.askedTotal,
    },
    atRisk,
    lostNow,
    atRiskAhead: ahead,
    evidenceLost: { series: lost, deleted: sum(lost, (r) => r.deleted), damaged: sum(lost, (r) => r.damaged) },
    expiringThisWeek: {
      window: { bucket: "day", from: new Date(today).toISOString(), buckets: EXPIRY_DAYS },
      series: [...perDay.values()],
      byClass,
      total: expiringTotal,
    },
    storage: { byClass: storage.byClass, total: storage.total },
  };
}

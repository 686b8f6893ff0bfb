/**
 * Prepares the project overview for its charts: every bucket of the window present (zero-filled,
 * so a calm hour reads as zero, not as missing data), labels for the axis and the table, the
 * figures shown beside each chart, the empty-state sentence and the link into the filtered list.
 * Pure and unit-tested; the chart components draw what this returns and decide nothing.
 */
import type { OverviewDays, OverviewRange, ProjectOverview } from "@/lib/server/overview";
import { formatCount, formatDay, humanize } from "../format";
import { projectHref } from "../project-href";
import { formatBytes } from "./what-if-series";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const CLASSES = ["NARRATIVE", "STRUCTURED", "SIDE_EFFECTING"] as const;

export interface BucketWindow {
  bucket: "hour" | "day";
  from: string;
  buckets: number;
}

/** One bar (or stack of bars): a short axis label, the full label for the table, one number per key. */
export interface OverviewPoint {
  label: string;
  title: string;
  values: Record<string, number>;
}

export interface OverviewChartModel {
  id: string;
  title: string;
  /** One sentence saying what the chart shows in numbers: the chart's accessible name. */
  summary: string;
  figures: Array<{ label: string; value: string }>;
  /** The series drawn, in stacking order. */
  keys: Array<{ key: string; label: string }>;
  unit: "count" | "bytes";
  points: OverviewPoint[];
  /** Set when there is nothing to draw: the sentence shown instead of an empty chart. */
  empty: string | null;
  link: { href: string; text: string };
  /** What kind of figure the chart is, when that needs saying (a projection, not a record). */
  note?: string;
}

const RANGE_WORDS: Record<OverviewRange, string> = {
  "24h": "the last 24 hours",
  "7d": "the last 7 days",
  "30d": "the last 30 days",
  "90d": "the last 90 days",
};

/** The ranges offered, in the picker's order (every range the read model takes, by RANGE_WORDS' type). */
export const RANGES = Object.keys(RANGE_WORDS) as OverviewRange[];

/** The range named in a URL, or null when it names none the overview offers. */
export function rangeFromUrl(value: string | null | undefined): OverviewRange | null {
  return RANGES.find((r) => r === value) ?? null;
}

export function rangeWords(range: OverviewRange): string {
  return RANGE_WORDS[range];
}

/** When the overview counts, as a phrase: "in the last 7 days", or its days ("from Dec 1 to Dec 6", "on Dec 6"). */
export function viewWords(view: { range: OverviewRange; days?: OverviewDays }, year?: number): string {
  if (!view.days) return `in ${rangeWords(view.range)}`;
  const { from, to } = view.days;
  return from === to ? `on ${formatDay(from, year)}` : `from ${formatDay(from, year)} to ${formatDay(to, year)}`;
}

/** The range as URL parameters, as every ranged list takes it: `range=7d`, or `from=…&to=…`. */
export function viewQuery(view: { range: OverviewRange; days?: OverviewDays }): string {
  return view.days ? `from=${view.days.from}&to=${view.days.to}` : `range=${view.range}`;
}

/**
 * "13:00" and "2026-12-03 13:00 UTC" for hours; "Dec 3" and "2026-12-03" for days: an axis label
 * as a person reads a day (a bare "12-03" read as a number), the full date in the table and tooltip.
 */
export function bucketLabels(start: Date, bucket: "hour" | "day"): { label: string; title: string } {
  const iso = start.toISOString();
  return bucket === "hour"
    ? { label: iso.slice(11, 16), title: `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` }
    : { label: formatDay(start), title: iso.slice(0, 10) };
}

/**
 * Every bucket of the window, oldest first, with the sparse rows' numbers put in place (a row
 * outside the window is ignored) and zero elsewhere.
 */
export function fillBuckets<R extends { at: string }>(
  rows: readonly R[],
  window: BucketWindow,
  keys: ReadonlyArray<keyof R & string>,
): OverviewPoint[] {
  const step = window.bucket === "hour" ? HOUR_MS : DAY_MS;
  const first = Date.parse(window.from);
  const points = Array.from({ length: window.buckets }, (_, i) => {
    const start = new Date(first + i * step);
    return { ...bucketLabels(start, window.bucket), values: Object.fromEntries(keys.map((k) => [k, 0])) };
  });
  for (const row of rows) {
    const i = (Date.parse(row.at) - first) / step;
    if (!Number.isInteger(i) || i < 0 || i >= points.length) continue;
    for (const k of keys) points[i]!.values[k]! += Number(row[k]);
  }
  return points;
}

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/**
 * Where each figure leads: the list that shows its rows, filtered, in the same range. Figures
 * counted over the range (refusals, compactions without asking) pass it on; so do the sessions at
 * risk or with evidence lost, counted now among the sessions active in the range, as their list
 * counts them.
 */
export function overviewLinks(slug: string, view: { range: OverviewRange; days?: OverviewDays }) {
  const range = viewQuery(view);
  return {
    refusals: projectHref(slug, `/refusals?show=refusals&${range}`),
    unasked: projectHref(slug, `/sessions?state=unasked&${range}`),
    atRisk: projectHref(slug, `/sessions?state=at-risk&${range}`),
    lost: projectHref(slug, `/sessions?state=lost&${range}`),
    retention: projectHref(slug, "/retention"),
  };
}

export function prepareOverview(o: ProjectOverview, slug: string) {
  const range = o.window.range;
  const when = viewWords(o.window, new Date(o.window.asOf).getUTCFullYear());
  const links = overviewLinks(slug, o.window);

  const refusals: OverviewChartModel = {
    id: "refusals",
    title: `Refusals per ${o.window.bucket}`,
    summary: `${plural(o.refusals.total, "refusal", "refusals")} ${when}`,
    figures: [{ label: "Refusals", value: formatCount(o.refusals.total) }],
    keys: [{ key: "count", label: "Refusals" }],
    unit: "count",
    points: fillBuckets(o.refusals.series, o.window, ["count"]),
    empty: o.refusals.total === 0 ? `No refusals ${when}` : null,
    // The count the refusals list shows for the same range ("N refusals in M compactions").
    link: {
      href: links.refusals,
      text: o.refusals.total === 0 ? "See the refusals" : `See the ${plural(o.refusals.total, "refusal", "refusals")}`,
    },
  };

  const c = o.unaskedCompactions;
  const unasked: OverviewChartModel = {
    id: "unasked",
    title: "Compactions without asking",
    summary: `${plural(c.total, "compaction", "compactions")} without asking the gate ${when}, replacing ${plural(c.spansReplaced, "span", "spans")}`,
    figures: [
      { label: "Without asking", value: formatCount(c.total) },
      { label: "Spans they replaced", value: formatCount(c.spansReplaced) },
      { label: "Asked the gate", value: formatCount(c.askedTotal) },
    ],
    keys: [{ key: "count", label: "Compactions without asking" }],
    unit: "count",
    points: fillBuckets(c.series, o.window, ["count"]),
    empty: c.total === 0 ? `No compactions without asking ${when}` : null,
    link: { href: links.unasked, text: "See the sessions compacted without asking" },
  };

  const l = o.evidenceLost;
  const lost: OverviewChartModel = {
    id: "lost",
    title: "Evidence lost",
    summary: `${plural(l.deleted, "original", "originals")} deleted and ${formatCount(l.damaged)} found damaged ${when}; ${plural(o.atRisk.spans, "span", "spans")} at risk now`,
    figures: [
      { label: "Spans at risk now", value: formatCount(o.atRisk.spans) },
      { label: "Sessions with spans at risk", value: formatCount(o.atRisk.sessions) },
      { label: "Sessions with evidence lost", value: formatCount(o.lostNow.sessions) },
      { label: "Originals deleted", value: formatCount(l.deleted) },
      { label: "Originals found damaged", value: formatCount(l.damaged) },
    ],
    keys: [
      { key: "deleted", label: "Deleted" },
      { key: "damaged", label: "Damaged" },
    ],
    unit: "count",
    points: fillBuckets(l.series, o.window, ["deleted", "damaged"]),
    empty: l.deleted + l.damaged === 0 ? `No evidence lost ${when}` : null,
    note: `At risk and lost now: in the sessions active ${when}, as the sessions list counts them.`,
    link: {
      href: o.atRisk.spans > 0 ? links.atRisk : links.lost,
      text: o.atRisk.spans > 0 ? "See the sessions at risk" : "See the sessions that lost evidence",
    },
  };

  const e = o.expiringThisWeek;
  const expiring: OverviewChartModel = {
    id: "expiring",
    title: "Originals expiring this week",
    summary: `${plural(e.total.originals, "original", "originals")} (${formatBytes(e.total.bytes)}) expire by ${bucketLabels(new Date(Date.parse(e.window.from) + (e.window.buckets - 1) * DAY_MS), "day").title}`,
    figures: [
      { label: "Originals", value: formatCount(e.total.originals) },
      ...CLASSES.map((k) => ({ label: capitalise(humanize(k)), value: formatCount(e.byClass[k].originals) })),
      { label: "Bytes", value: formatBytes(e.total.bytes) },
    ],
    keys: [{ key: "originals", label: "Originals" }],
    unit: "count",
    points: fillBuckets(e.series, e.window, ["originals"]),
    empty: e.total.originals === 0 ? "No originals expire this week" : null,
    link: { href: links.retention, text: "Pin or extend them on the retention page" },
  };

  const s = o.storage;
  const storage: OverviewChartModel = {
    id: "storage",
    title: "Storage by class",
    summary: `${plural(s.total.originals, "original", "originals")} held, ${formatBytes(s.total.bytes)}`,
    figures: CLASSES.map((k) => ({
      label: capitalise(humanize(k)),
      value: `${formatBytes(s.byClass[k].bytes)} (${plural(s.byClass[k].originals, "original", "originals")})`,
    })),
    keys: [{ key: "bytes", label: "Bytes held" }],
    unit: "bytes",
    points: CLASSES.map((k) => ({ label: humanize(k), title: capitalise(humanize(k)), values: { bytes: s.byClass[k].bytes } })),
    empty: s.total.originals === 0 ? "No originals held" : null,
    link: { href: links.retention, text: "See retention and storage" },
  };

  return { range, charts: [refusals, unasked, lost, expiring, storage] };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

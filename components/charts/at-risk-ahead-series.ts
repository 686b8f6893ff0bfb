/**
 * Prepares "spans at risk ahead" for its chart: from how many held originals at risk reach their
 * expiry in each bucket ahead, every bucket's running split between those still held and those
 * lost by then, if nobody pins or extends. The range picks whose spans: those of the sessions active
 * in it (the "at risk now" figure's sessions), always projected from now; the link opens the
 * retention page's list of them, for the same range. Pure and unit-tested; the panel draws what
 * this returns.
 */
import type { AtRiskAhead, ProjectOverview } from "@/lib/server/overview";
import { formatCount, formatDay } from "../format";
import { projectHref } from "../project-href";
import { bucketLabels, fillBuckets, type OverviewChartModel, viewQuery, viewWords } from "./overview-series";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** "the next 24 hours", "the next 7 days". */
function aheadWords(window: AtRiskAhead["window"]): string {
  return `the next ${window.buckets} ${window.bucket === "hour" ? "hours" : "days"}`;
}

/** Still held and lost by the end of each bucket, starting from `held`. */
export function runningSplit(a: AtRiskAhead) {
  const points = fillBuckets(a.series, a.window, ["expiring"]);
  let lost = 0;
  return points.map((p) => {
    lost += p.values.expiring ?? 0;
    return { label: p.label, title: p.title, values: { held: a.held - lost, lost } };
  });
}

export function prepareAtRiskAhead(o: ProjectOverview, slug: string): OverviewChartModel {
  const a = o.atRiskAhead;
  const points = runningSplit(a);
  const lost = points.at(-1)?.values.lost ?? 0;
  const step = a.window.bucket === "hour" ? HOUR_MS : DAY_MS;
  const last = bucketLabels(new Date(Date.parse(a.window.from) + (a.window.buckets - 1) * step), a.window.bucket).title;
  const when = aheadWords(a.window);
  const first = a.firstExpiry ? formatDay(a.firstExpiry, new Date(o.window.asOf).getUTCFullYear()) : null;
  const active = `the sessions active ${viewWords(o.window, new Date(o.window.asOf).getUTCFullYear())}`;
  return {
    id: "at-risk-ahead",
    title: "Spans at risk ahead",
    summary: `Of ${plural(a.held, "span", "spans")} at risk with the original held, in ${active}, ${formatCount(lost)} ${lost === 1 ? "loses" : "lose"} it by the end of ${last} if nobody pins or extends`,
    note:
      `The spans of ${active}, projected over ${when} from their originals' stored expiries, assuming nobody pins or extends. ` +
      "Counted as the retention page lists them: with the spans that have no pointer, which the grid shows red rather than at risk. " +
      "Past figures are not shown: pins, extensions and policy changes rewrite an original's expiry, so the count on an earlier day cannot be read back.",
    figures: [
      { label: "At risk, original held now", value: formatCount(a.held) },
      { label: `Lost within ${when}`, value: formatCount(lost) },
      { label: "Still held at the end", value: formatCount(a.held - lost) },
      // A date reads as one: it does not wrap between day and year beside its label on a phone.
      ...(first ? [{ label: "First expiry", value: first.replaceAll(" ", "\u00a0") }] : []),
    ],
    keys: [
      { key: "held", label: "Still held" },
      { key: "lost", label: "Lost by then" },
    ],
    unit: "count",
    points,
    // Bars that all stand at the same height say nothing: when none expires within the window, a
    // sentence says so and when the first does.
    empty:
      a.held === 0
        ? `No spans at risk with their original held in ${active}`
        : lost === 0
          ? `None of them loses its original within ${when}; the first expires on ${first}`
          : null,
    link: { href: projectHref(slug, `/retention?${viewQuery(o.window)}#at-risk`), text: "Pin or extend these spans" },
  };
}

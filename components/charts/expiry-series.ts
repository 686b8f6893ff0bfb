/**
 * Prepares the retention chart: originals expiring per coming ISO week (Mondays, UTC), one series
 * per class, zero-filled so an empty week reads as zero; weeks and classes named as people read
 * them. Pure and unit-tested.
 */
import { formatDay } from "../format";
import { classLabel } from "../policy-labels";

export interface WeekClassCount {
  week: string;
  class: string;
  count: number;
}

const DAY_MS = 86_400_000;

export function mondayOf(date: Date): Date {
  const day = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday = 0
  return new Date(day - weekday * DAY_MS);
}

export function prepareExpirySeries(counts: readonly WeekClassCount[], from: Date, weeks: number) {
  const keys = ["STRUCTURED", "SIDE_EFFECTING"].filter((k) => counts.some((c) => c.class === k));
  const first = mondayOf(from).getTime();
  const points = Array.from({ length: weeks + 1 }, (_, i) => {
    const point: Record<string, number | string> = { week: new Date(first + i * 7 * DAY_MS).toISOString().slice(0, 10) };
    for (const key of keys) point[key] = 0;
    return point;
  });
  const index = new Map(points.map((p, i) => [p.week as string, i]));
  for (const c of counts) {
    const i = index.get(c.week);
    if (i === undefined || !keys.includes(c.class)) continue;
    points[i]![c.class] = (points[i]![c.class] as number) + c.count;
  }
  // The axis names a week by its Monday, without its year (twelve weeks ahead read in order); the
  // tooltip adds the year where it is not this one.
  const year = from.getUTCFullYear();
  for (const p of points) {
    p.label = formatDay(p.week as string);
    p.title = `Week of ${formatDay(p.week as string, year)}`;
  }
  return { keys, names: Object.fromEntries(keys.map((k) => [k, classLabel(k)])) as Record<string, string>, points };
}

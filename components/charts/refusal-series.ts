/**
 * Prepares refusal counts for the chart: one point per UTC day in the window (zero-filled, so gaps
 * read as calm days, not missing data), one series per refusing cell. Pure and unit-tested; the
 * chart component only draws what this returns.
 */
import { formatDay, provenanceWords } from "../format";

export interface DayCellCount {
  day: string;
  cellClass: string;
  cellProvenance: string;
  count: number;
}

export interface RefusalSeries {
  keys: string[];
  points: Array<Record<string, number | string>>;
}

const DAY_MS = 86_400_000;

export function seriesKey(cellClass: string, cellProvenance: string): string {
  return `${cellClass.toLowerCase().replace("_", "-")} × ${provenanceWords(cellProvenance)}`;
}

export function prepareRefusalSeries(counts: readonly DayCellCount[], to: Date, days: number): RefusalSeries {
  const keys = [...new Set(counts.map((c) => seriesKey(c.cellClass, c.cellProvenance)))].sort();
  const end = Date.UTC(to.getUTCFullYear(), to.getUTCMonth(), to.getUTCDate());
  const points = Array.from({ length: days }, (_, i) => {
    const day = new Date(end - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10);
    // The tick's text: short enough that a month of days does not crowd the axis.
    const point: Record<string, number | string> = { day, label: formatDay(day, to.getUTCFullYear()) };
    for (const key of keys) point[key] = 0;
    return point;
  });
  const index = new Map(points.map((p, i) => [p.day as string, i]));
  for (const c of counts) {
    const i = index.get(c.day);
    if (i === undefined) continue;
    const point = points[i]!;
    const key = seriesKey(c.cellClass, c.cellProvenance);
    point[key] = (point[key] as number) + c.count;
  }
  return { keys, points };
}

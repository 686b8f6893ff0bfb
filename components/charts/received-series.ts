/**
 * Prepares the retention page's "Received per day" chart: bytes of originals still held, by the day
 * they were received, each day labelled short. Pure and unit-tested.
 */
import { formatDay } from "../format";

export interface ReceivedDay {
  /** The UTC date ("2026-12-06"). */
  date: string;
  originals: number;
  bytes: number;
}

export function prepareReceivedSeries(days: readonly ReceivedDay[]) {
  const year = days.at(-1) ? Number(days.at(-1)!.date.slice(0, 4)) : undefined;
  return {
    points: days.map((d) => ({ date: d.date, label: formatDay(d.date, year), bytes: d.bytes, originals: d.originals })),
    max: Math.max(0, ...days.map((d) => d.bytes)),
  };
}

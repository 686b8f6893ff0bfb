/**
 * Prepares the retention what-if charts and table from a simulation: pure and unit-tested, so the
 * chart components only draw. Shapes are structural (no server types), the simulation's as JSON.
 */
import { formatDay } from "../format";

export const CLASSES = ["NARRATIVE", "STRUCTURED", "SIDE_EFFECTING"] as const;
export type ClassName = (typeof CLASSES)[number];
type ByClass = Record<ClassName, number>;

export interface DayFigures {
  date: string;
  originalsDeleted: number;
  bytesFreed: number;
  bytesStored: number;
  storedByClass: ByClass;
  lost: ByClass;
}

export interface AnswerChange {
  questionId: string;
  questionTitle: string;
  sessionId: string;
  from: string;
  to: string;
  at: string;
  spanIds: string[];
}

export interface Outlook {
  days: DayFigures[];
  questionsAffected: AnswerChange[];
}

/**
 * Bytes stored per day under the current policy and under the proposal, for one chart with one
 * y-scale, so the lines compare by height. Each point carries its day as a tick reads it (`label`).
 */
export function prepareStorageComparison(current: readonly DayFigures[], proposed: readonly DayFigures[]) {
  const year = yearOf(current);
  const points = current.map((day, i) => ({
    date: day.date,
    label: formatDay(day.date, year),
    current: day.bytesStored,
    proposed: proposed[i]?.bytesStored ?? 0,
  }));
  return { points };
}

/** The year of the first day: ticks and rows name other years only. */
const yearOf = (days: ReadonlyArray<{ date: string }>) => (days[0] ? Number(days[0].date.slice(0, 4)) : undefined);

/**
 * Evidence-bearing spans (structured and side-effecting) turned LOST so far, per day, current
 * beside proposed: cumulative, so the line says how much evidence is gone by each date.
 */
export function prepareLostSeries(current: readonly DayFigures[], proposed: readonly DayFigures[]) {
  const year = yearOf(current);
  let [c, p] = [0, 0];
  return current.map((day, i) => {
    c += day.lost.STRUCTURED + day.lost.SIDE_EFFECTING;
    const other = proposed[i];
    p += other ? other.lost.STRUCTURED + other.lost.SIDE_EFFECTING : 0;
    return { date: day.date, label: formatDay(day.date, year), current: c, proposed: p };
  });
}

/** Answers turned INSUFFICIENT_EVIDENCE so far, per day, current beside proposed. */
export function prepareAnswersSeries(
  dates: readonly string[],
  current: readonly AnswerChange[],
  proposed: readonly AnswerChange[],
) {
  const counts = (changes: readonly AnswerChange[]) => {
    const perDay = new Map<string, number>();
    for (const change of changes) {
      const day = change.at.slice(0, 10);
      // A change before the first day (an expiry already passed) happens at the next sweep: day one.
      const key = dates.length > 0 && day < dates[0]! ? dates[0]! : day;
      perDay.set(key, (perDay.get(key) ?? 0) + 1);
    }
    return perDay;
  };
  const [c, p] = [counts(current), counts(proposed)];
  const year = dates[0] ? Number(dates[0].slice(0, 4)) : undefined;
  let [ct, pt] = [0, 0];
  return dates.map((date) => {
    ct += c.get(date) ?? 0;
    pt += p.get(date) ?? 0;
    return { date, label: formatDay(date, year), current: ct, proposed: pt };
  });
}

export interface WhatIfRow {
  date: string;
  /** The day as the table shows it ("Dec 6"). */
  label: string;
  current: { deleted: number; freed: number; stored: number; lost: number };
  proposed: { deleted: number; freed: number; stored: number; lost: number };
  answers: { current: number; proposed: number };
}

/**
 * The table beneath the charts: the days on which something happens under either policy, with
 * the first and last day always there so the totals read from a start and an end.
 */
export function prepareWhatIfTable(current: Outlook, proposed: Outlook): { rows: WhatIfRow[]; totals: WhatIfRow["current"][] } {
  const dates = current.days.map((d) => d.date);
  const answers = prepareAnswersSeries(dates, current.questionsAffected, proposed.questionsAffected);
  const year = yearOf(current.days);
  const figures = (d: DayFigures | undefined) => ({
    deleted: d?.originalsDeleted ?? 0,
    freed: d?.bytesFreed ?? 0,
    stored: d?.bytesStored ?? 0,
    lost: d ? d.lost.STRUCTURED + d.lost.SIDE_EFFECTING : 0,
  });
  const rows: WhatIfRow[] = [];
  current.days.forEach((day, i) => {
    const row: WhatIfRow = {
      date: day.date,
      label: formatDay(day.date, year),
      current: figures(day),
      proposed: figures(proposed.days[i]),
      answers: {
        current: answers[i]!.current - (answers[i - 1]?.current ?? 0),
        proposed: answers[i]!.proposed - (answers[i - 1]?.proposed ?? 0),
      },
    };
    const happens =
      row.current.deleted + row.proposed.deleted + row.answers.current + row.answers.proposed > 0 ||
      i === 0 ||
      i === current.days.length - 1;
    if (happens) rows.push(row);
  });
  const total = (days: readonly DayFigures[]) => ({
    deleted: days.reduce((n, d) => n + d.originalsDeleted, 0),
    freed: days.reduce((n, d) => n + d.bytesFreed, 0),
    stored: days.at(-1)?.bytesStored ?? 0,
    lost: days.reduce((n, d) => n + d.lost.STRUCTURED + d.lost.SIDE_EFFECTING, 0),
  });
  return { rows, totals: [total(current.days), total(proposed.days)] };
}

/** "1.5 MB": bytes as people read them (powers of 1,000, one decimal). */
export function formatBytes(n: number): string {
  const units = ["B", "kB", "MB", "GB", "TB"];
  let value = n;
  let unit = 0;
  while (Math.abs(value) >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

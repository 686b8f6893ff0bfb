/**
 * The what-if's figures by evidential class, day by day, for the table beneath the charts: pure and
 * unit-tested, so the table only lays them out. Shapes are structural (the simulation's as JSON).
 */
import { formatDay } from "../format";
import { classLabel } from "../policy-labels";
import { CLASSES, type ClassName } from "./what-if-series";

type ByClass = Record<ClassName, number>;

export interface ClassDayFigures {
  date: string;
  freedByClass: ByClass;
  lost: ByClass;
  turnedExpiring: ByClass;
  expiringHeld: ByClass;
  storedByClass: ByClass;
}

export interface ClassFigures {
  freed: number;
  lost: number;
  turnedExpiring: number;
  expiringHeld: number;
  stored: number;
}

export interface ClassRow {
  date: string;
  /** The day and the class as the table shows them ("Dec 6", "Side-effecting"). */
  label: string;
  cls: ClassName;
  clsLabel: string;
  current: ClassFigures;
  proposed: ClassFigures;
}

const figures = (d: ClassDayFigures | undefined, c: ClassName): ClassFigures => ({
  freed: d?.freedByClass[c] ?? 0,
  lost: d?.lost[c] ?? 0,
  turnedExpiring: d?.turnedExpiring[c] ?? 0,
  expiringHeld: d?.expiringHeld[c] ?? 0,
  stored: d?.storedByClass[c] ?? 0,
});

/**
 * One row per day and class on which that class loses or frees anything, or has spans turn
 * EXPIRING, under either policy; the first and last day always, so each class reads from a start
 * to an end.
 */
export function prepareByClassTable(current: readonly ClassDayFigures[], proposed: readonly ClassDayFigures[]): ClassRow[] {
  const rows: ClassRow[] = [];
  const year = current[0] ? Number(current[0].date.slice(0, 4)) : undefined;
  current.forEach((day, i) => {
    const edge = i === 0 || i === current.length - 1;
    for (const cls of CLASSES) {
      const row = {
        date: day.date,
        label: formatDay(day.date, year),
        cls,
        clsLabel: classLabel(cls),
        current: figures(day, cls),
        proposed: figures(proposed[i], cls),
      };
      const happens = [row.current, row.proposed].some((f) => f.freed + f.lost + f.turnedExpiring > 0);
      if (happens || edge) rows.push(row);
    }
  });
  return rows;
}

import { describe, expect, it } from "vitest";
import { type ClassDayFigures, prepareByClassTable } from "./what-if-by-class";

const by = (NARRATIVE: number, STRUCTURED: number, SIDE_EFFECTING: number) => ({ NARRATIVE, STRUCTURED, SIDE_EFFECTING });
const none = by(0, 0, 0);
const day = (date: string, figures: Partial<Omit<ClassDayFigures, "date">> = {}): ClassDayFigures => ({
  date,
  freedByClass: none,
  lost: none,
  turnedExpiring: none,
  expiringHeld: none,
  storedByClass: by(10, 20, 30),
  ...figures,
});

describe("the what-if's table by class", () => {
  it("keeps the days and classes where either policy frees, loses or turns spans EXPIRING, and the first and last day", () => {
    const current = [
      day("2026-12-03"),
      day("2026-12-04"),
      day("2026-12-05", { lost: by(2, 0, 0), freedByClass: by(5, 0, 0) }),
      day("2026-12-06"),
    ];
    const proposed = [
      day("2026-12-03", { turnedExpiring: by(0, 0, 4), expiringHeld: by(0, 0, 4) }),
      day("2026-12-04", { lost: by(0, 0, 1), freedByClass: by(0, 0, 7), expiringHeld: by(0, 0, 3) }),
      day("2026-12-05"),
      day("2026-12-06"),
    ];
    const rows = prepareByClassTable(current, proposed);
    expect(rows.map((r) => `${r.date} ${r.cls}`)).toEqual([
      "2026-12-03 NARRATIVE",
      "2026-12-03 STRUCTURED",
      "2026-12-03 SIDE_EFFECTING",
      "2026-12-04 SIDE_EFFECTING",
      "2026-12-05 NARRATIVE",
      "2026-12-06 NARRATIVE",
      "2026-12-06 STRUCTURED",
      "2026-12-06 SIDE_EFFECTING",
    ]);
    expect(rows[2]).toMatchObject({ label: "Dec 3", clsLabel: "Side-effecting" });
    expect(rows[2]!.proposed).toEqual({ freed: 0, lost: 0, turnedExpiring: 4, expiringHeld: 4, stored: 30 });
    expect(rows[3]).toMatchObject({ current: { freed: 0, lost: 0 }, proposed: { freed: 7, lost: 1, expiringHeld: 3 } });
    expect(rows[4]!.current).toMatchObject({ freed: 5, lost: 2, stored: 10 });
  });

  it("reads a shorter proposal as zeros past its end", () => {
    const rows = prepareByClassTable([day("2026-12-03", { lost: by(1, 0, 0) })], []);
    expect(rows[0]!.proposed).toEqual({ freed: 0, lost: 0, turnedExpiring: 0, expiringHeld: 0, stored: 0 });
  });
});

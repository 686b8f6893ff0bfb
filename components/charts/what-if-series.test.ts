import { describe, expect, it } from "vitest";
import {
  type DayFigures,
  formatBytes,
  prepareAnswersSeries,
  prepareLostSeries,
  prepareStorageComparison,
  prepareWhatIfTable,
} from "./what-if-series";

const day = (date: string, deleted: number, stored: number, lostSE = deleted): DayFigures => ({
  date,
  originalsDeleted: deleted,
  bytesFreed: deleted * 10,
  bytesStored: stored,
  storedByClass: { NARRATIVE: 0, STRUCTURED: stored - lostSE, SIDE_EFFECTING: lostSE },
  lost: { NARRATIVE: 0, STRUCTURED: 0, SIDE_EFFECTING: lostSE },
});

const change = (at: string) => ({
  questionId: "modified-system-config",
  questionTitle: "Did we modify system config?",
  sessionId: "s",
  from: "YES",
  to: "INSUFFICIENT_EVIDENCE",
  at,
  spanIds: ["x"],
});

describe("what-if chart preparation", () => {
  const current = [day("2026-12-01", 0, 100), day("2026-12-02", 0, 100), day("2026-12-03", 0, 100)];
  const proposed = [day("2026-12-01", 0, 100), day("2026-12-02", 2, 80), day("2026-12-03", 1, 70)];

  it("puts both policies' stored bytes on each day, labelled short", () => {
    const series = prepareStorageComparison(proposed, [day("2026-12-01", 0, 150), day("2026-12-02", 0, 150)]);
    expect(series.points).toEqual([
      { date: "2026-12-01", label: "Dec 1", current: 100, proposed: 150 },
      { date: "2026-12-02", label: "Dec 2", current: 80, proposed: 150 },
      { date: "2026-12-03", label: "Dec 3", current: 70, proposed: 0 },
    ]);
    expect(prepareStorageComparison([], []).points).toEqual([]);
  });

  it("names another year's days with their year", () => {
    const turn = [day("2026-12-31", 0, 10), day("2027-01-01", 0, 10)];
    expect(prepareStorageComparison(turn, turn).points.map((p) => p.label)).toEqual(["Dec 31", "Jan 1 2027"]);
  });

  it("accumulates lost evidence-bearing spans, current beside proposed", () => {
    expect(prepareLostSeries(current, proposed)).toEqual([
      { date: "2026-12-01", label: "Dec 1", current: 0, proposed: 0 },
      { date: "2026-12-02", label: "Dec 2", current: 0, proposed: 2 },
      { date: "2026-12-03", label: "Dec 3", current: 0, proposed: 3 },
    ]);
  });

  it("counts answers changed so far; a change dated before the first day lands on it", () => {
    const dates = current.map((d) => d.date);
    expect(prepareAnswersSeries(dates, [], [change("2026-11-30T09:00:00Z"), change("2026-12-03T01:00:00Z")])).toEqual([
      { date: "2026-12-01", label: "Dec 1", current: 0, proposed: 1 },
      { date: "2026-12-02", label: "Dec 2", current: 0, proposed: 1 },
      { date: "2026-12-03", label: "Dec 3", current: 0, proposed: 2 },
    ]);
  });

  it("tables the days on which something happens, with totals per policy", () => {
    const table = prepareWhatIfTable(
      { days: current, questionsAffected: [] },
      { days: proposed, questionsAffected: [change("2026-12-02T10:00:00Z")] },
    );
    expect(table.rows.map((r) => r.date)).toEqual(["2026-12-01", "2026-12-02", "2026-12-03"]);
    expect(table.rows.map((r) => r.label)).toEqual(["Dec 1", "Dec 2", "Dec 3"]);
    expect(table.rows[1]).toMatchObject({ proposed: { deleted: 2, freed: 20, lost: 2 }, answers: { current: 0, proposed: 1 } });
    expect(table.totals).toEqual([
      { deleted: 0, freed: 0, stored: 100, lost: 0 },
      { deleted: 3, freed: 30, stored: 70, lost: 3 },
    ]);
    const quiet = prepareWhatIfTable(
      { days: [...current, day("2026-12-04", 0, 100)], questionsAffected: [] },
      { days: [...current, day("2026-12-04", 0, 100)], questionsAffected: [] },
    );
    expect(quiet.rows.map((r) => r.date)).toEqual(["2026-12-01", "2026-12-04"]);
  });

  it("formats bytes", () => {
    expect(formatBytes(999)).toBe("999 B");
    expect(formatBytes(1500)).toBe("1.5 kB");
    expect(formatBytes(2_000_000_000)).toBe("2.0 GB");
  });
});

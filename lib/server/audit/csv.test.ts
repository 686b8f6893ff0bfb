import { describe, expect, it } from "vitest";
import { AUDIT_CSV_HEADER, auditCsvCells, csvCell, csvRow } from "./csv";
import { auditCsvFileName } from "./export";

/** A small RFC 4180 reader, to prove what csvRow writes reads back as the same cells. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted && c === '"') quoted = false;
    else if (quoted) cell += c;
    else if (c === '"') quoted = true;
    else if (c === "," || (c === "\r" && text[i + 1] === "\n")) {
      cells.push(cell);
      cell = "";
      if (c === "\r") {
        records.push(cells);
        cells = [];
        i++;
      }
    } else cell += c;
  }
  return records;
}

describe("CSV cells and rows", () => {
  it("quotes only what needs quoting, doubling quotes (RFC 4180)", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("")).toBe("");
    expect(csvRow(["a", "b,c", ""])).toBe('a,"b,c",\r\n');
  });

  it("a cell a spreadsheet would run as a formula starts with an apostrophe", () => {
    for (const lead of ["=", "+", "-", "@", "\t", "\r"]) {
      expect(csvCell(`${lead}SUM(A1)`)).toBe(lead === "\r" ? `"'${lead}SUM(A1)"` : `'${lead}SUM(A1)`);
      expect(parseCsv(csvRow([`${lead}cmd|' /C calc'!A0`]))[0]![0]).toBe(`'${lead}cmd|' /C calc'!A0`);
    }
    expect(csvCell("=1+1")).toBe("'=1+1");
    expect(csvCell("a=1")).toBe("a=1");
  });

  it("hostile cells read back exactly (after the guard), one record per row", () => {
    const cells = ['"quoted", with comma', "line\r\nbreak", "ünïcødé → ok", "'already", ""];
    expect(parseCsv(csvRow(cells) + csvRow(["x"]))).toEqual([cells, ["x"]]);
  });

  it("an event's cells: the words, every listed span in full, the recorded JSON, the guard on typed text", () => {
    const spans = Array.from({ length: 3 }, (_, i) => `0b7e9d2c-1111-4a2b-9c3d-00000000000${i}`);
    const row = {
      id: "e0e0e0e0-4444-4a2b-9c3d-000000000005",
      at: new Date("2026-12-02T11:20:33.000Z"),
      actorType: "USER" as const,
      actorLabel: "=evil@example.com",
      act: "originals.pin",
      targetType: "project",
      targetId: "p1",
      before: { pinned: false },
      after: { pinned: true, spans: spans.map((spanId) => ({ sessionId: "s", spanId })) },
      reason: "-hold for case 7",
    };
    const cells = auditCsvCells(row, "acme");
    expect(cells).toHaveLength(AUDIT_CSV_HEADER.length);
    const record = Object.fromEntries(AUDIT_CSV_HEADER.map((h, i) => [h, cells[i]]));
    expect(record).toMatchObject({
      when: "2026-12-02T11:20:33.000Z",
      who: "=evil@example.com",
      who_type: "person",
      act: "Pinned originals in bulk",
      act_code: "originals.pin",
      target: "this project",
      reason: "-hold for case 7",
    });
    expect(record.changes).toBe(`pinned: no -> yes\nspans: (absent) -> 3 spans: ${spans.join(", ")}`);
    expect(JSON.parse(record.after_json!)).toEqual(row.after);
    const [read] = parseCsv(csvRow(cells));
    expect(read![1]).toBe("'=evil@example.com");
    expect(read![9]).toBe("'-hold for case 7");
  });

  it("names the file after the project and the day", () => {
    expect(auditCsvFileName("acme", new Date("2026-12-03T10:00:00Z"))).toBe("audit-log-acme-2026-12-03.csv");
    expect(auditCsvFileName('a"b\r\n', new Date("2026-12-03T10:00:00Z"))).toBe("audit-log-a_b__-2026-12-03.csv");
  });
});

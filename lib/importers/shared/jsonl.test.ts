import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BLANK_BETWEEN_RECORDS, eachJsonLine, readJsonLines } from "./jsonl";
import { wholeBytes } from "./source";
import { chunked } from "./testkit";
import type { ImportIssue } from "./types";
import { utf8 } from "./text";

function read(bytes: Uint8Array) {
  const issues: ImportIssue[] = [];
  const sink = { read: () => {}, skip: (line: number, message: string) => issues.push({ line, message }) };
  const lines = readJsonLines(bytes, sink);
  return { lines: lines.map((l) => [l.line, l.value]), issues };
}

describe("readJsonLines", () => {
  it("numbers lines from 1, tolerates CRLF and a byte order mark, and passes over blank lines at the end", () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('{"a":1}\r\n{"b":2}\n\n  \n')]);
    expect(read(bytes)).toEqual({
      lines: [
        [1, { a: 1 }],
        [2, { b: 2 }],
      ],
      issues: [],
    });
  });

  // No runtime's writer leaves a blank line between two records: one there may be a record whose
  // bytes were lost (a record cut to nothing read as the file's YES turned NO), so it blocks a NO.
  it("reports blank lines between records as skipped, each once", () => {
    const bytes = utf8('{"a":1}\r\n\n   \n{"b":2}\n\n');
    const { lines, issues } = read(bytes);
    expect(lines).toEqual([
      [1, { a: 1 }],
      [4, { b: 2 }],
    ]);
    expect(issues).toEqual([
      { line: 2, message: BLANK_BETWEEN_RECORDS },
      { line: 3, message: BLANK_BETWEEN_RECORDS },
    ]);
  });

  it("reports invalid UTF-8, bad JSON, non-objects and a truncated final line by line", () => {
    const bytes = new Uint8Array([...utf8('{"ok":1}\n{"x":"'), 0xc3, 0x28, ...utf8('"}\n{oops}\n42\n{"ok":2}\n{"cut":')]);
    const { lines, issues } = read(bytes);
    expect(lines).toEqual([
      [1, { ok: 1 }],
      [5, { ok: 2 }],
    ]);
    expect(issues.map((i) => i.line)).toEqual([2, 3, 4, 6]);
    expect(issues[0]!.message).toMatch(/invalid UTF-8/);
    expect(issues[1]!.message).toMatch(/malformed JSON/);
    expect(issues[2]!.message).toMatch(/expected a JSON object, found number/);
    expect(issues[3]!.message).toMatch(/truncated final line/);
  });

  it("keeps each line's bytes for verbatim slicing", () => {
    const [line] = readJsonLines(utf8('{"t":"caf\\u00e9"}\n'), { read: () => {}, skip: () => {} });
    expect(new TextDecoder().decode(line!.bytes)).toBe('{"t":"caf\\u00e9"}');
  });
});

describe("eachJsonLine", () => {
  it("parses and reports a line only when the reader takes it, so a reader holds one line's JSON at a time", () => {
    const reported: number[] = [];
    const sink = { read: (line: number) => reported.push(line), skip: () => {} };
    const lines = eachJsonLine(utf8('{"a":1}\n{"b":2}\nnot json\n{"c":3}\n'), sink);
    expect(reported).toEqual([]);
    expect(lines.next().value?.value).toEqual({ a: 1 });
    expect(reported).toEqual([1]);
    expect([...lines].map((l) => l.line)).toEqual([2, 4]);
    expect(reported).toEqual([1, 2, 3, 4]);
  });
});

describe("eachJsonLine over a file read in chunks", () => {
  /** Every line and report, as the reader sees them. */
  function seen(input: Parameters<typeof eachJsonLine>[0]) {
    const reports: string[] = [];
    const sink = {
      read: (line: number) => reports.push(`read ${line}`),
      skip: (line: number, m: string) => reports.push(`${line} ${m}`),
    };
    const lines = [...eachJsonLine(input, sink)].map((l) => ({ ...l, bytes: [...l.bytes] }));
    return { lines, reports };
  }

  it("gives the same lines, offsets and reports as the whole file, wherever the chunks end", () => {
    const piece = fc.oneof(
      fc.constantFrom('{"a":1}', '{"t":"café ☕"}', "", "   ", "{oops}", "42", '{"cut":', "\r"),
      fc.string(),
      fc.uint8Array({ maxLength: 6 }).map((b) => String.fromCharCode(...b)),
    );
    const file = fc
      .tuple(fc.boolean(), fc.array(piece, { maxLength: 12 }), fc.constantFrom("\n", "\r\n"), fc.boolean())
      .map(([bom, parts, eol, trailing]) => {
        const body = utf8(parts.join(eol) + (trailing ? eol : ""));
        return bom ? new Uint8Array([0xef, 0xbb, 0xbf, ...body]) : body;
      });
    // Invalid UTF-8 split across two chunks, too.
    const broken = fc.constant(new Uint8Array([...utf8('{"x":"'), 0xe2, 0x98, ...utf8('"}\n{"ok":1}')]));
    fc.assert(
      fc.property(fc.oneof(file, broken), fc.integer({ min: 1, max: 9 }), (bytes, size) => {
        expect(seen(chunked(bytes, size))).toEqual(seen(bytes));
      }),
      { numRuns: 500 },
    );
  });
});

describe("wholeBytes", () => {
  it("puts a file read in chunks back together, whatever size it was said to have", () => {
    const bytes = utf8('{"a":1}\n{"b":2}\n');
    for (const size of [1, 3, 100])
      for (const said of [0, 5, bytes.length, 40])
        expect([...wholeBytes({ byteLength: said, chunks: () => chunked(bytes, size).chunks() })]).toEqual([...bytes]);
  });
});

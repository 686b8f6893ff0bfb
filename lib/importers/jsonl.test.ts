import { describe, expect, it } from "vitest";
import { eachJsonLine, readJsonLines } from "./jsonl";
import type { ImportIssue } from "./types";
import { utf8 } from "./text";

function read(bytes: Uint8Array) {
  const issues: ImportIssue[] = [];
  const sink = { read: () => {}, skip: (line: number, message: string) => issues.push({ line, message }) };
  const lines = readJsonLines(bytes, sink);
  return { lines: lines.map((l) => [l.line, l.value]), issues };
}

describe("readJsonLines", () => {
  it("numbers lines from 1, passes over blank lines and tolerates CRLF and a byte order mark", () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('{"a":1}\r\n\n   \n{"b":2}\n')]);
    expect(read(bytes)).toEqual({
      lines: [
        [1, { a: 1 }],
        [4, { b: 2 }],
      ],
      issues: [],
    });
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

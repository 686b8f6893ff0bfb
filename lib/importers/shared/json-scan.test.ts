import { describe, expect, it } from "vitest";
import { lineAt, locate, rawValue, splitArray } from "./json-scan";
import { utf8 } from "./text";

const decode = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));

describe("rawValue", () => {
  const doc = utf8(
    '{"a": 1, "message": {"content": [{"type":"text"}, {"input": {"p": "caf\\u00e9", "n": 1.50}} ]}, "z": "\\"}"}',
  );

  it("returns a nested value's exact bytes, escapes and number spellings included", () => {
    expect(decode(rawValue(doc, ["message", "content", 1, "input"]))).toBe('{"p": "caf\\u00e9", "n": 1.50}');
    expect(decode(rawValue(doc, ["a"]))).toBe("1");
    expect(decode(rawValue(doc, ["z"]))).toBe('"\\"}"');
  });

  it("returns undefined for a path that is absent or crosses the wrong kind of value", () => {
    expect(rawValue(doc, ["nope"])).toBeUndefined();
    expect(rawValue(doc, ["message", "content", 5])).toBeUndefined();
    expect(rawValue(doc, ["a", "b"])).toBeUndefined();
    expect(rawValue(doc, ["message", 0])).toBeUndefined();
  });

  it("finds where a value starts even when the document ends inside it", () => {
    const cut = utf8('{"meta": {"x": [1, 2]}, "history": [{"id": 1}, {"id"');
    expect(cut[locate(cut, ["history"])]).toBe(0x5b);
    expect(rawValue(cut, ["history"])).toBeUndefined();
  });

  it("handles multi-byte characters by bytes", () => {
    const bytes = utf8('{"k": "日本", "v": {"ü": "✓"}}');
    expect(decode(rawValue(bytes, ["v"]))).toBe('{"ü": "✓"}');
    expect(decode(rawValue(bytes, ["v", "ü"]))).toBe('"✓"');
  });
});

describe("splitArray", () => {
  const parts = (text: string) => {
    const bytes = utf8(text);
    const { elements, closed } = splitArray(bytes, text.indexOf("["));
    return { closed, items: elements.map((e) => [decode(bytes.subarray(e.start, e.end)), e.complete]) };
  };

  it("splits at top-level commas only", () => {
    expect(parts('[{"a": [1, 2]}, "x,y", 3 ]')).toEqual({
      closed: true,
      items: [
        ['{"a": [1, 2]}', true],
        ['"x,y"', true],
        ["3", true],
      ],
    });
    expect(parts("[ ]")).toEqual({ closed: true, items: [] });
  });

  it("keeps garbage inside one element and marks a cut-off last element", () => {
    expect(parts('[{"a": 1} junk, {"b": 2}, {"c": ')).toEqual({
      closed: false,
      items: [
        ['{"a": 1} junk', true],
        ['{"b": 2}', true],
        ['{"c":', false],
      ],
    });
  });
});

describe("lineAt", () => {
  it("counts lines up to an offset", () => {
    const bytes = utf8("a\nb\nc");
    expect(lineAt(bytes, 0)).toBe(1);
    expect(lineAt(bytes, 2)).toBe(2);
    expect(lineAt(bytes, 4)).toBe(3);
  });
});

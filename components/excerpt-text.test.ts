import { describe, expect, it } from "vitest";
import { completeUtf8Length, excerptText, LINE_CHARS, oneLine } from "./excerpt-text";

const utf8 = (s: string) => new TextEncoder().encode(s);

describe("excerptText", () => {
  it("shows a whole short original as it is, on one line when collapsed", () => {
    const body = '{"path": "/etc/app/conf.yaml",\n  "content": "listen: 8443"}';
    const shown = excerptText(utf8(body), utf8(body).byteLength);
    expect(shown).toEqual({ text: body, line: '{"path": "/etc/app/conf.yaml", "content": "listen: 8443"}', truncated: false });
  });

  it("drops a character the prefix cut in half rather than showing a replacement character", () => {
    const body = utf8("größe: 5 €");
    // The prefix ends inside the euro sign (three bytes).
    const head = body.subarray(0, body.byteLength - 1);
    const shown = excerptText(head, body.byteLength);
    expect(shown.text).toBe("größe: 5 ");
    expect(shown.truncated).toBe(true);
    expect(shown.line).toBe("größe: 5…");
  });

  it("keeps invalid bytes of the original visible as replacement characters", () => {
    const head = new Uint8Array([0x61, 0xff, 0x62]);
    expect(excerptText(head, 3).text).toBe("a\ufffdb");
  });

  it("keeps markup as text: the row renders it escaped", () => {
    const body = '<img src=x onerror="alert(1)">';
    expect(excerptText(utf8(body), body.length).line).toBe(body);
  });
});

describe("oneLine", () => {
  it("cuts long text at LINE_CHARS characters with an ellipsis, counting characters not UTF-16 units", () => {
    const line = oneLine("😀".repeat(LINE_CHARS + 10));
    expect(Array.from(line)).toHaveLength(LINE_CHARS);
    expect(line.endsWith("…")).toBe(true);
  });

  it("removes control characters and folds whitespace", () => {
    expect(oneLine("a\u0000b\u001b[31m\t\tc\r\n d")).toBe("ab[31m c d");
  });

  it("is empty for an empty or blank body", () => {
    expect(oneLine("  \n ")).toBe("");
    expect(oneLine("", true)).toBe("");
  });
});

describe("completeUtf8Length", () => {
  it("keeps whole sequences of every length and cuts partial ones", () => {
    for (const ch of ["a", "ß", "€", "😀"]) {
      const bytes = utf8(`x${ch}`);
      expect(completeUtf8Length(bytes)).toBe(bytes.byteLength);
      for (let cut = 1; cut < bytes.byteLength - 1; cut++)
        expect(completeUtf8Length(bytes.subarray(0, bytes.byteLength - cut))).toBe(1);
    }
  });

  it("leaves a run of stray continuation bytes for the decoder to mark", () => {
    const bytes = new Uint8Array([0x61, 0x80, 0x80, 0x80, 0x80]);
    expect(completeUtf8Length(bytes)).toBe(5);
  });
});

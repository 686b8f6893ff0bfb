import { describe, expect, it } from "vitest";
import { bodySegments } from "./body-segments";

const enc = (s: string) => new TextEncoder().encode(s);

describe("bodySegments", () => {
  it("cuts at atom boundaries, labels covered runs, and reassembles the whole body", () => {
    const body = enc('write_file(path="/etc/app/conf.yaml")');
    const segments = bodySegments(body, [{ byteStart: 17, byteEnd: 35, label: "path" }]);
    expect(segments.map((s) => s.text).join("")).toBe('write_file(path="/etc/app/conf.yaml")');
    expect(segments.find((s) => s.labels.includes("path"))!.text).toBe("/etc/app/conf.yaml");
  });

  it("keeps byte offsets exact after multi-byte characters and marks the cited range", () => {
    const body = enc("café → /etc/hosts");
    const start = body.indexOf(0x2f);
    const segments = bodySegments(body, [{ byteStart: start, byteEnd: body.byteLength, label: "path" }], {
      byteStart: start,
      byteEnd: body.byteLength,
    });
    const cited = segments.filter((s) => s.cited);
    expect(cited.map((s) => s.text).join("")).toBe("/etc/hosts");
    expect(segments[0]!.text).toBe("café → ");
  });

  it("decodes invalid bytes as replacement characters without shifting later runs", () => {
    const body = new Uint8Array([0xff, 0xfe, ...enc(" /tmp/x")]);
    const segments = bodySegments(body, [{ byteStart: 3, byteEnd: 9, label: "path" }]);
    expect(segments[0]!.text).toBe("\ufffd\ufffd ");
    expect(segments[1]!.text).toBe("/tmp/x");
  });

  it("keeps markup as text: nothing here produces HTML", () => {
    const segments = bodySegments(enc("<script>alert(1)</script>"), []);
    expect(segments).toEqual([{ text: "<script>alert(1)</script>", byteStart: 0, byteEnd: 25, labels: [], cited: false }]);
  });
});

import { describe, expect, it } from "vitest";
import { pageBySeq } from "./span-page-by-seq";

const dense = { spanCount: 1_005, seqCount: 1_000, seqMin: 10, seqMax: 1_009 };

describe("a transcript page found by seq", () => {
  it("reads an unfiltered page of gapless seqs from its first seq, either way", () => {
    expect(pageBySeq(dense, {}, { offset: 400, limit: 200, descending: false })).toEqual({
      filter: { seqFrom: 410 },
      read: { offset: 0, limit: 200, descending: false },
    });
    // Turned round, the five summaries come first: the 400th span is seq 1,009 - 395.
    expect(pageBySeq(dense, {}, { offset: 400, limit: 200, descending: true })).toEqual({
      filter: { seqTo: 614 },
      read: { offset: 0, limit: 200, descending: true },
    });
  });

  it("keeps the offset for a filter, a gap, or a page that reaches the summaries", () => {
    const read = { offset: 900, limit: 200, descending: false };
    expect(pageBySeq(dense, {}, read).read).toBe(read);
    expect(pageBySeq(dense, { kind: "TOOL_CALL" }, { ...read, offset: 0 }).filter).toEqual({ kind: "TOOL_CALL" });
    expect(pageBySeq({ ...dense, seqMax: 1_010 }, {}, { ...read, offset: 0 }).filter).toEqual({});
    expect(pageBySeq(dense, {}, { offset: 3, limit: 200, descending: true }).filter).toEqual({});
    expect(pageBySeq({ spanCount: 0, seqCount: 0, seqMin: null, seqMax: null }, {}, { ...read, offset: 0 }).filter).toEqual({});
  });
});

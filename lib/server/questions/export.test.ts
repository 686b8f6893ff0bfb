import { describe, expect, it } from "vitest";
import { answerAsCsv } from "./export";
import { completenessCase } from "@/lib/evidence/questions";
import type { EvidenceQueryResult } from "./ask";

const question = { id: "custom", title: "Custom question", anyOf: [{ toolNames: ["Bash"] }] };
const S = "00000000-0000-4000-8000-000000000001";

function result(over: Partial<EvidenceQueryResult>): EvidenceQueryResult {
  const found = { blockers: over.blockers ?? [], gaps: over.gaps ?? [], skippedRecords: over.skippedRecords ?? [] };
  return {
    completeness: completenessCase({ ...found, noSpansInScope: over.noSpansInScope ?? false }),
    question,
    sessionsInScope: 1,
    answer: "INSUFFICIENT_EVIDENCE",
    citations: [],
    blockers: [],
    checkedSpans: 0,
    scopeComplete: false,
    gaps: [],
    skippedRecords: [],
    noSpansInScope: false,
    outcomes: {},
    citationCount: over.citations?.length ?? 0,
    blockerCount: over.blockers?.length ?? 0,
    ...over,
  };
}

/** The CSV as rows of named cells. */
function parse(csv: string): Array<Record<string, string>> {
  const lines = csv.trimEnd().split("\r\n");
  const cells = (line: string) => [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!.replace(/""/g, '"'));
  const header = cells(lines[0]!);
  return lines.slice(1).map((l) => Object.fromEntries(cells(l).map((v, i) => [header[i], v])));
}

describe("answerAsCsv", () => {
  it("gives each citation its span kind, outcome and exit code, and every row the tally of attempts", () => {
    const cite = {
      sessionId: S,
      sha256: "a".repeat(64),
      excerpt: "rm -rf build",
      atomKind: "COMMAND" as const,
      predicateIndex: 0,
    };
    const rows = parse(
      answerAsCsv(
        result({
          answer: "YES",
          citations: [
            { ...cite, spanId: "s1", seq: 3, byteStart: 0, byteEnd: 12, spanKind: "TOOL_CALL", outcome: "FAILED", exitCode: 2 },
            {
              ...cite,
              spanId: "s2",
              seq: 9,
              byteStart: 4,
              byteEnd: 16,
              spanKind: "TOOL_CALL",
              outcome: "SUCCEEDED",
              exitCode: 0,
            },
          ],
          outcomes: { FAILED: 1, SUCCEEDED: 1 },
        }),
      ),
    );
    expect(rows.map((r) => [r.row, r.span_kind, r.outcome, r.exit_code, r.attempts])).toEqual([
      ["citation", "TOOL_CALL", "FAILED", "2", "2 attempts: 1 succeeded, 1 failed"],
      ["citation", "TOOL_CALL", "SUCCEEDED", "0", "2 attempts: 1 succeeded, 1 failed"],
    ]);
  });

  it("lists the skipped records that block a NO, and says when the scope held no spans", () => {
    const rows = parse(answerAsCsv(result({ skippedRecords: [{ sessionId: S, line: 41, reason: "not valid JSON" }] })));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ row: "skipped_record", session_id: S, skipped_line: "41", skipped_reason: "not valid JSON" });

    const empty = parse(answerAsCsv(result({ noSpansInScope: true })));
    expect(empty).toHaveLength(1);
    expect(empty[0]).toMatchObject({ row: "answer", answer: "INSUFFICIENT_EVIDENCE", no_spans_in_scope: "true", attempts: "" });
    expect(Object.keys(empty[0]!)).toHaveLength(18);
  });
});

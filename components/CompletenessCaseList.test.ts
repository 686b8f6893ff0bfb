import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { COMPLETENESS_CONDITIONS, completenessCase } from "@/lib/evidence/questions";
import { CompletenessCaseList } from "./CompletenessCaseList";

const html = (c: Parameters<typeof CompletenessCaseList>[0]["completeness"]) =>
  renderToStaticMarkup(createElement(CompletenessCaseList, { completeness: c }));

describe("CompletenessCaseList", () => {
  it("lists every condition of a case that holds", () => {
    const out = html(completenessCase({ blockers: [], gaps: [], skippedRecords: [], noSpansInScope: false }));
    expect(out).toContain("every condition holds");
    expect(out.match(/data-holds="true"/g)).toHaveLength(COMPLETENESS_CONDITIONS.length);
  });

  it("names what blocks each condition that fails", () => {
    const skipped = [{ sessionId: "s1", line: 1, reason: "the file starts after its session began" }];
    const out = html(
      completenessCase({
        blockers: [],
        gaps: [{ sessionId: "s1" }],
        skippedRecords: skipped,
        noSpansInScope: false,
      }),
    );
    expect(out).toContain("not met");
    expect(out).toContain('data-condition="records" data-holds="false"');
    expect(out).toContain("Blocked by 1 record skipped or missing in 1 session.");
    expect(out).toContain("Blocked by 1 seq gap in 1 session.");
  });

  it("shows nothing for an answer kept from before the case existed", () => {
    expect(html(undefined)).toBe("");
  });
});

import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EvidenceAnswerHeading, NoSpansInScopeNote } from "./EvidenceAnswerHeading";

describe("EvidenceAnswerHeading", () => {
  it("shows the title and the answer in words, INSUFFICIENT_EVIDENCE as lost and YES and NO as safe", () => {
    const html = (answer: "YES" | "NO" | "INSUFFICIENT_EVIDENCE") =>
      renderToStaticMarkup(createElement(EvidenceAnswerHeading, { title: "<i>Modified</i> config?", answer }));
    expect(html("INSUFFICIENT_EVIDENCE")).toBe(
      '<h2>&lt;i&gt;Modified&lt;/i&gt; config? <span class="badge lost" data-testid="answer">INSUFFICIENT EVIDENCE</span></h2>',
    );
    expect(html("YES")).toContain('<span class="badge safe" data-testid="answer">YES</span>');
    expect(html("NO")).toContain('<span class="badge safe" data-testid="answer">NO</span>');
  });
});

describe("NoSpansInScopeNote", () => {
  it("explains an INSUFFICIENT_EVIDENCE answer over an empty scope, and nothing else", () => {
    const note = (answer: "YES" | "NO" | "INSUFFICIENT_EVIDENCE", noSpansInScope: boolean) =>
      renderToStaticMarkup(createElement(NoSpansInScopeNote, { answer, noSpansInScope }));
    expect(note("INSUFFICIENT_EVIDENCE", true)).toContain('data-testid="no-spans-in-scope"');
    expect(note("INSUFFICIENT_EVIDENCE", true)).toContain("absence is never concluded from an empty scope");
    expect(note("INSUFFICIENT_EVIDENCE", false)).toBe("");
    expect(note("NO", true)).toBe("");
  });
});

import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { buildExportDocument } from "@/lib/server/questions/export-document";
import { sampleContext, sampleResult } from "@/lib/server/questions/export-fixture.testkit";
import { EvidenceExportDocument } from "./EvidenceExportDocument";

describe("EvidenceExportDocument", () => {
  const document = buildExportDocument(sampleResult(2), sampleContext);
  const html = renderToStaticMarkup(createElement(EvidenceExportDocument, { document }));

  it("shows who asked what, when, where, under which policy and version, and the export's hash", () => {
    for (const text of [
      "auditor@example.com",
      "2026-12-03 10:00 UTC",
      "Shop",
      `version ${sampleContext.policy.version}`,
      document.custodianVersion,
      document.exportSha256,
      "Every session of project &quot;Shop&quot;",
      "2 attempts: 2 failed",
      "Pin the original",
    ]) {
      expect(html).toContain(text);
    }
    expect(html.split(document.citations[0]!.citedSha256!).length - 1).toBe(2);
  });

  it("shows when it was asked as the dashboard shows times, the instant kept in its time element", () => {
    expect(html).toContain('<time dateTime="2026-12-03T10:00:00.000Z">2026-12-03 10:00 UTC</time>');
  });

  it("renders transcript text as text, never as HTML", () => {
    expect(html).not.toContain("<script>");
    expect(html).toContain("/etc/app/&lt;script&gt;");
  });
});

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";
import { exportAsCsv } from "./export";
import { canonicalJson } from "./export-canonical";
import { buildExportDocument, CUSTODIAN_VERSION, exportHash, exportStream } from "./export-document";
import { SAMPLE_BODY as body, SAMPLE_PROJECT_ID, sampleContext, sampleResult } from "./export-fixture.testkit";

describe("the export document", () => {
  it("says who asked what, when, of which project, over which scope, under which policy and version", () => {
    const d = buildExportDocument(sampleResult(), sampleContext);
    expect(d).toMatchObject({
      format: "custodian-evidence-export",
      formatVersion: 2,
      custodianVersion: CUSTODIAN_VERSION,
      project: { id: SAMPLE_PROJECT_ID, slug: "shop", name: "Shop" },
      askedBy: { id: "u1", email: "auditor@example.com" },
      askedAt: "2026-12-03T10:00:00.000Z",
      question: { id: "custom", predicates: [{ valuePrefixes: ["/etc/app/"] }] },
      scope: { sessions: null, from: "2026-11-01T00:00:00.000Z", to: null },
      policy: { version: 4, evidenceHorizonDays: DEFAULT_POLICY.evidenceHorizonDays },
      answer: { answer: "YES", citationCount: 2, blockerCount: 1, outcomeSummary: "2 attempts: 2 failed" },
    });
    expect(CUSTODIAN_VERSION).toMatch(/^\d+\.\d+\.\d+/);
    expect(d.question.inWords).toContain('"/etc/app/" or below it');
    expect(d.scope.inWords).toBe('Every session of project "Shop", spans from 2026-11-01 00:00 UTC on.');
    expect(d.answer.blockers[0]).toMatchObject({ unblockBy: "pin", unblock: expect.stringMatching(/^Pin the original/) });
  });

  it("gives each citation the sha256 of the whole original and of exactly the cited bytes", () => {
    const [c] = buildExportDocument(sampleResult(1), sampleContext).citations;
    expect(c!.sha256).toBe(createHash("sha256").update(body).digest("hex"));
    expect(c!.citedSha256).toBe(createHash("sha256").update("/etc/app/<script>").digest("hex"));
    expect(Buffer.from(c!.bytesBase64!, "base64").toString()).toBe("/etc/app/<script>");
    expect(c).toMatchObject({ spanKind: "TOOL_CALL", outcome: "FAILED", exitCode: 1, atomKind: "PATH" });
  });

  it("is sealed by a sha256 over its canonical form without the hash, which any edit changes", () => {
    const d = buildExportDocument(sampleResult(), sampleContext);
    const { exportSha256, ...rest } = d;
    expect(exportSha256).toBe(createHash("sha256").update(canonicalJson(rest)).digest("hex"));
    expect(exportHash(d)).toBe(exportSha256);
    expect(exportHash({ ...d, askedBy: { ...d.askedBy, email: "someone@else" } })).not.toBe(exportSha256);
    expect(exportHash({ ...d, citations: d.citations.slice(1) })).not.toBe(exportSha256);
  });

  it("refuses an answer cut at a window: an export carries every citation and blocker", () => {
    const cut = { ...sampleResult(3), citationCount: 10_001 };
    expect(() => buildExportDocument(cut, sampleContext)).toThrow(/every citation/);
  });

  it("downloads as its canonical text, in pieces", async () => {
    const d = buildExportDocument(sampleResult(3000), sampleContext);
    const reader = exportStream(d).getReader();
    const pieces: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) pieces.push(r.value);
    expect(pieces.length).toBeGreaterThan(1);
    expect(Buffer.concat(pieces).toString("utf8")).toBe(canonicalJson(d));
  });

  it("as CSV: the document's facts, then the answer's table", () => {
    const result = sampleResult();
    const csv = exportAsCsv(buildExportDocument(result, sampleContext), result);
    const [meta, table] = csv.split("\r\n\r\n");
    expect(meta).toContain('"asked_by","auditor@example.com"');
    expect(meta).toContain('"policy_version","4"');
    expect(meta).toMatch(/"json_export_sha256","[0-9a-f]{64}"/);
    expect(table!.split("\r\n")[0]).toMatch(/^"row","answer","question"/);
  });
});

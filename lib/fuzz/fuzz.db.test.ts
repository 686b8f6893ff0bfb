/**
 * The fuzz slice `npm test` runs: about 2,000 generated requests over every route file under app/
 * (found on disk), none answered 5xx, and the server still serving afterwards.
 */
import "./next-runtime";
import { describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/v1/health/route";
import { POST as askQuestion } from "@/app/api/v1/evidence/query/route";
import { callRoute } from "./call";
import { formatReport, loadRoutes, makeFixture, routeFiles, runFuzz, seededRng } from "./fuzz";
import { probeForgedAddresses } from "./forged-addresses";
import { probeFullImportQueue } from "./import-queue-probe";
import { FUZZ_TRUSTED_PROXY } from "./request-generators";

// The run's connections come from plain clients and from one proxy the server trusts.
process.env.CUSTODIAN_TRUSTED_PROXIES = FUZZ_TRUSTED_PROXY;

describe("fuzzing every route", () => {
  it("finds every route file under app/", () => {
    const patterns = routeFiles().map((r) => r.pattern);
    for (const expected of [
      "/api/v1/sessions",
      "/api/v1/sessions/[id]/spans",
      "/api/v1/evidence/query",
      "/api/v1/health",
      "/api/[...path]",
    ])
      expect(patterns).toContain(expected);
  });

  it("2,000 hostile requests: no 5xx, and the server serves afterwards", async () => {
    const routes = await loadRoutes();
    const fixture = await makeFixture();
    const report = await runFuzz({
      requests: Number(process.env.CUSTODIAN_FUZZ_REQUESTS ?? 2000),
      seed: Number(process.env.CUSTODIAN_FUZZ_SEED ?? 1),
      routes,
      fixture,
    });
    expect(Object.keys(report.byRoute).length).toBeGreaterThanOrEqual(routes.length);
    expect(report.serverErrors, formatReport(report)).toBe(0);
    expect((await callRoute(health, { method: "GET" })).status).toBe(200);
    const answer = await callRoute(askQuestion, {
      key: fixture.keys.viewer,
      body: { question: { canned: "modified-system-config" } },
    });
    expect(answer.status).toBe(200);
  }, 600_000);

  it("floods with forged forwarding headers are counted against their connection; clients behind a trusted proxy apart", async () => {
    const probe = await probeForgedAddresses(await loadRoutes(), seededRng(Number(process.env.CUSTODIAN_FUZZ_SEED ?? 1)));
    expect(probe.findings).toEqual([]);
    expect(probe.serverErrors).toBe(0);
  }, 120_000);

  it("imports into a full queue: 429 IMPORT_QUEUE_FULL with Retry-After, nothing written", async () => {
    const probe = await probeFullImportQueue(await loadRoutes(), await makeFixture("queue"), seededRng(3));
    expect(probe.findings).toEqual([]);
    expect(probe.serverErrors).toBe(0);
  }, 120_000);
});

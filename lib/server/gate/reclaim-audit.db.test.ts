import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { candidateSummaryFor } from "./candidate-summary";
import { actorOf, reclaim } from "./reclaim";

async function session(label: string) {
  const project = await makeTestProject(label);
  const { session } = await upsertSession(project.id, { externalId: "s", runtime: "test" });
  const spans = await appendSpans(project.id, session.id, [
    { seq: 0, kind: "MESSAGE", occurredAt: new Date(), body: new TextEncoder().encode("Hello, let us start.") },
    {
      seq: 1,
      kind: "TOOL_CALL",
      toolName: "Bash",
      occurredAt: new Date(),
      body: new TextEncoder().encode('{"command":"sudo systemctl restart app"}'),
    },
  ]);
  return { projectId: project.id, sessionId: session.id, spanIds: spans.map((s) => s.id) };
}

describe("reclamations in the audit log", () => {
  it("a committed reclamation writes one audit row naming who asked and what was replaced; a dry run writes none", async () => {
    const s = await session("reclaim-audit");
    const summary = await candidateSummaryFor(s.sessionId, s.spanIds, "The agent greeted the user.", { pointers: false });
    const request = { projectId: s.projectId, sessionId: s.sessionId, selection: { spanIds: s.spanIds }, summary };
    await reclaim({ ...request, dryRun: true, requester: "api-key:cust_abcdefg" });
    expect(await db().auditLog.count({ where: { projectId: s.projectId } })).toBe(0);

    const outcome = await reclaim({ ...request, dryRun: false, requester: "api-key:cust_abcdefg" });
    const audit = await db().auditLog.findMany({ where: { projectId: s.projectId } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      act: "reclamation.commit",
      actorType: "API_KEY",
      actorLabel: "cust_abcdefg",
      targetType: "session",
      targetId: s.sessionId,
    });
    const after = audit[0]!.after as {
      reclamationId: string;
      observed: boolean;
      replacedSpanIds: string[];
      refusedSpanIds: string[];
    };
    expect(after.reclamationId).toBe(outcome.reclamationId);
    expect(after.observed).toBe(false);
    const refused = outcome.decisions.filter((d) => d.verdict === "REFUSE").map((d) => d.spanId);
    expect(after.refusedSpanIds).toEqual(refused);
    expect([...after.replacedSpanIds, ...after.refusedSpanIds].sort()).toEqual([...s.spanIds].sort());
  });

  it("an observed reclamation (an import) is audited too, as the importer", async () => {
    const s = await session("reclaim-observed");
    const summary = await candidateSummaryFor(s.sessionId, s.spanIds, "Restarted something.", { pointers: false });
    await reclaim({
      projectId: s.projectId,
      sessionId: s.sessionId,
      selection: { fromSeq: 0, toSeq: 1 },
      summary,
      dryRun: false,
      observed: true,
      requester: "importer:claude-code",
    });
    const audit = await db().auditLog.findFirstOrThrow({ where: { projectId: s.projectId, act: "reclamation.commit" } });
    expect(audit).toMatchObject({ actorType: "SYSTEM", actorLabel: "importer:claude-code" });
    expect(audit.after).toMatchObject({ observed: true, replacedSpanIds: expect.arrayContaining(s.spanIds) });
  });

  it("reads the actor from the requester", () => {
    expect(actorOf("user:a@example.com")).toEqual({ type: "USER", label: "a@example.com" });
    expect(actorOf("api-key:cust_1")).toEqual({ type: "API_KEY", label: "cust_1" });
    expect(actorOf("importer:codex")).toEqual({ type: "SYSTEM", label: "importer:codex" });
  });
});

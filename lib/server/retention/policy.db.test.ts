import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";
import type { Actor } from "@/lib/server/audit/write";
import { askEvidenceQuestion } from "@/lib/server/questions/ask";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { loadPolicy, updatePolicy } from "./policy";
import { makeTestProject } from "@/lib/server/admin/test-project";

const admin: Actor = { type: "USER", id: "a", label: "admin@example.com" };

describe("retention policy changes", () => {
  it("need a reason and a valid policy, and are audited with before and after", async () => {
    const project = await makeTestProject("policy");
    const policy = { ...DEFAULT_POLICY, evidenceHorizonDays: 200, systemConfigPrefixes: ["/etc/"] };
    await expect(updatePolicy(project.id, { policy }, admin, " ")).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    await expect(updatePolicy(project.id, { policy: { ...policy, evidenceHorizonDays: -1 } }, admin, "x")).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      options: { fields: [expect.objectContaining({ path: "evidenceHorizonDays" })] },
    });
    await updatePolicy(project.id, { policy }, admin, "audit cycle shortened");
    expect((await loadPolicy(db(), project.id)).evidenceHorizonDays).toBe(200);
    const audit = await db().auditLog.findFirstOrThrow({ where: { projectId: project.id, act: "policy.update" } });
    expect(audit.reason).toBe("audit cycle shortened");
    expect(audit.before).toEqual({ default: true });
    expect(audit.after).toMatchObject({ evidenceHorizonDays: 200 });
  });

  it("canned question edits change what the question asks", async () => {
    const project = await makeTestProject("policy-q");
    const { session } = await upsertSession(project.id, { externalId: "s", runtime: "claude-code", cwd: "/srv/app" });
    await appendSpans(project.id, session.id, [
      {
        seq: 0,
        kind: "TOOL_CALL",
        toolName: "write_file",
        occurredAt: new Date(),
        body: new TextEncoder().encode('{"path":"/data/app/settings.ini"}'),
      },
    ]);
    const before = await askEvidenceQuestion({ projectId: project.id, question: { canned: "modified-system-config" } });
    expect(before.answer).toBe("NO");
    await updatePolicy(
      project.id,
      {
        policy: DEFAULT_POLICY,
        cannedQuestions: {
          "modified-system-config": {
            title: "Did we touch /data?",
            anyOf: [{ effectKinds: ["FILE_WRITE"], valuePrefixes: ["/data/"] }],
          },
        },
      },
      admin,
      "our system config lives in /data",
    );
    const after = await askEvidenceQuestion({ projectId: project.id, question: { canned: "modified-system-config" } });
    expect(after.question.title).toBe("Did we touch /data?");
    expect(after.answer).toBe("YES");
    expect(after.citations[0]!.excerpt).toBe("/data/app/settings.ini");
    await expect(
      updatePolicy(
        project.id,
        { policy: DEFAULT_POLICY, cannedQuestions: { "modified-system-config": { anyOf: [{ valuePattern: "(" }] } } },
        admin,
        "bad",
      ),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
  });
});

import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";
import type { RetentionPolicy } from "@/lib/evidence/types";
import { makeTestProject, TEST_ACTOR } from "@/lib/server/admin/test-project";
import { currentPolicy, rollbackPolicy, savePolicyVersion } from "./versions";

const withTtl = (ttl: Partial<RetentionPolicy["ttlDays"]>): RetentionPolicy => ({
  ...DEFAULT_POLICY,
  ttlDays: { ...DEFAULT_POLICY.ttlDays, ...ttl },
});
const fieldsOf = (error: unknown) => ((error as { fields?: Array<{ path: string }> }).fields ?? []).map((f) => f.path);

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).not.toBeNull();
  return { code: (error as { code: string }).code, fields: fieldsOf(error) };
}

describe("saving a policy from a form without a preview", () => {
  it("a change that gives up evidence is refused naming 'preview' and saves nothing; one that keeps longer saves", async () => {
    const { id } = await makeTestProject("versions-preview");
    const shorter = savePolicyVersion(
      id,
      { policy: withTtl({ SIDE_EFFECTING: 10 }), expectedVersion: 0, reason: "budget", requirePreview: true },
      TEST_ACTOR,
    );
    expect(await refusal(shorter)).toEqual({ code: "VALIDATION_FAILED", fields: ["preview"] });
    expect((await currentPolicy(id)).version).toBe(0);
    expect(await db().auditLog.count({ where: { projectId: id } })).toBe(0);

    // The same change with its preview shown (the what-if's save) goes through.
    const saved = await savePolicyVersion(
      id,
      { policy: withTtl({ SIDE_EFFECTING: 10 }), expectedVersion: 0, reason: "budget" },
      TEST_ACTOR,
    );
    expect(saved.version).toBe(1);

    const longer = await savePolicyVersion(
      id,
      { policy: withTtl({ SIDE_EFFECTING: 900 }), expectedVersion: 1, reason: "keep more", requirePreview: true },
      TEST_ACTOR,
    );
    expect(longer).toMatchObject({ version: 2, changes: [{ field: "ttlDays.SIDE_EFFECTING", narrowing: false }] });
  });

  it("a stale version is a conflict before anything else is judged", async () => {
    const { id } = await makeTestProject("versions-stale");
    await savePolicyVersion(id, { policy: withTtl({ NARRATIVE: 60 }), expectedVersion: 0 }, TEST_ACTOR);
    const stale = savePolicyVersion(
      id,
      { policy: withTtl({ SIDE_EFFECTING: 1 }), expectedVersion: 0, requirePreview: true },
      TEST_ACTOR,
    );
    expect((await refusal(stale)).code).toBe("CONFLICT");
  });

  it("canned-question edits sent with a change that must be previewed are refused by name; the same edits in another key order are no edit", async () => {
    const { id } = await makeTestProject("versions-canned");
    const edits = { "modified-system-config": { title: "Config changes", description: "Anything under /etc" } };
    await savePolicyVersion(id, { policy: DEFAULT_POLICY, cannedQuestions: edits, expectedVersion: 0, reason: "r" }, TEST_ACTOR);
    const shorter = { policy: withTtl({ STRUCTURED: 30 }), expectedVersion: 1, reason: "r", requirePreview: true };
    const changed = savePolicyVersion(
      id,
      { ...shorter, cannedQuestions: { "modified-system-config": { title: "Other" } } },
      TEST_ACTOR,
    );
    expect(await refusal(changed)).toEqual({ code: "VALIDATION_FAILED", fields: ["cannedQuestions"] });
    const reordered = { "modified-system-config": { description: "Anything under /etc", title: "Config changes" } };
    expect(await refusal(savePolicyVersion(id, { ...shorter, cannedQuestions: reordered }, TEST_ACTOR))).toEqual({
      code: "VALIDATION_FAILED",
      fields: ["preview"],
    });
  });

  it("a rollback that gives up evidence needs the preview; previewed, it is saved as the rollback it is", async () => {
    const { id } = await makeTestProject("versions-rollback");
    await savePolicyVersion(id, { policy: withTtl({ SIDE_EFFECTING: 30 }), expectedVersion: 0, reason: "cut" }, TEST_ACTOR);
    await savePolicyVersion(id, { policy: withTtl({ SIDE_EFFECTING: 900 }), expectedVersion: 1 }, TEST_ACTOR);
    const back = { toVersion: 1, expectedVersion: 2, reason: "back to the cut" };
    expect(await refusal(rollbackPolicy(id, { ...back, requirePreview: true }, TEST_ACTOR))).toEqual({
      code: "VALIDATION_FAILED",
      fields: ["preview"],
    });
    // A preview of another policy is not this rollback.
    expect(await refusal(rollbackPolicy(id, { ...back, previewed: withTtl({ SIDE_EFFECTING: 31 }) }, TEST_ACTOR))).toEqual({
      code: "VALIDATION_FAILED",
      fields: ["rollbackOf"],
    });
    const saved = await rollbackPolicy(id, { ...back, previewed: withTtl({ SIDE_EFFECTING: 30 }) }, TEST_ACTOR);
    expect(saved).toMatchObject({ version: 3, changes: [{ field: "ttlDays.SIDE_EFFECTING", before: 900, after: 30 }] });
    const row = await db().retentionPolicyVersion.findUniqueOrThrow({
      where: { projectId_version: { projectId: id, version: 3 } },
    });
    expect(row.rollbackOf).toBe(1);
    // Rolling back to a policy that keeps longer needs no preview.
    const longer = await rollbackPolicy(id, { toVersion: 2, expectedVersion: 3, requirePreview: true }, TEST_ACTOR);
    expect(longer.version).toBe(4);
  });
});

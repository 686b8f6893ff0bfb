import "@/lib/fuzz/next-runtime";
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { ActionResult } from "@/lib/core/action-result";
import { db } from "@/lib/db/client";
import { ACTION_HOST, ACTION_ORIGIN, signIn } from "@/lib/fuzz/action-fixture";
import { inRequestScope } from "@/lib/fuzz/request-scope";
import { addMember, createUser } from "@/lib/server/admin";
import { makeTestProject, TEST_ACTOR } from "@/lib/server/admin/test-project";
import { currentPolicy, policyOfVersion } from "@/lib/server/retention";
import { rollbackPolicyAction, savePolicyAction, simulateAction } from "../retention/actions";
import { proposalFromSearch } from "../retention/proposal";
import { updatePolicyAction } from "./actions";

/**
 * Every form that saves a policy sends the version it was filled from (a version saved since is a
 * conflict), and the forms without a preview (Settings, a rollback on the history page) save only
 * changes that keep evidence at least as long: one that gives up evidence comes back unsaved with
 * the retention page's what-if, which simulates it on arrival and saves it with a reason.
 */
type AnyAction = (bound: string | null, previous: null, form: FormData) => Promise<ActionResult<unknown>>;

let slug: string;
let projectId: string;
let cookie: string;

async function act(action: AnyAction, fields: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const headers = new Headers({ host: ACTION_HOST, origin: ACTION_ORIGIN, cookie, "next-action": "test" });
  return inRequestScope(new Request(`${ACTION_ORIGIN}/test`, { method: "POST", headers }), "/test", () =>
    action(slug, null, form),
  ) as Promise<ActionResult<{ preview?: string; version?: number }>>;
}

const SETTINGS = {
  evidenceHorizonDays: "400",
  ttlNarrative: "30",
  ttlStructured: "400",
  ttlSideEffecting: "730",
  evidenceWorkloads: "on",
  cannedQuestions: "{}",
  reason: "settings edit",
};
const prefixes = async () => (await currentPolicy(projectId)).policy.systemConfigPrefixes.join("\n");
const policyAudits = () => db().auditLog.count({ where: { projectId, act: { startsWith: "policy." } } });

beforeAll(async () => {
  const project = await makeTestProject("settings-policy");
  [slug, projectId] = [project.slug, project.id];
  const password = `pw-${randomBytes(12).toString("hex")}`;
  const email = `owner-${randomBytes(4).toString("hex")}@example.com`;
  await createUser({ email, role: "VIEWER", password }, TEST_ACTOR);
  await addMember({ projectId, email, role: "ADMIN" }, TEST_ACTOR);
  cookie = await signIn(email, password);
});

describe("the settings policy form", () => {
  it("needs the version it was filled from; a stale one is a conflict", async () => {
    const fields = { ...SETTINGS, systemConfigPrefixes: await prefixes(), ttlNarrative: "60" };
    const unversioned = await act(updatePolicyAction as AnyAction, fields);
    expect(unversioned).toMatchObject({ ok: false, error: { code: "VALIDATION_FAILED", fields: [{ path: "version" }] } });

    const longer = await act(updatePolicyAction as AnyAction, { ...fields, version: "0" });
    expect(longer).toMatchObject({ ok: true, message: expect.stringContaining("version 1") });
    expect(await policyAudits()).toBe(1);

    const stale = await act(updatePolicyAction as AnyAction, { ...fields, ttlNarrative: "90", version: "0" });
    expect(stale).toMatchObject({ ok: false, error: { code: "CONFLICT" } });
    expect((await currentPolicy(projectId)).version).toBe(1);
  });

  it("a shorter TTL is not saved: it comes back with the what-if that previews it, and is saved from there with a reason", async () => {
    const { version } = await currentPolicy(projectId);
    const fields = { ...SETTINGS, systemConfigPrefixes: await prefixes(), ttlNarrative: "60", ttlSideEffecting: "1" };
    const handed = await act(updatePolicyAction as AnyAction, { ...fields, version: String(version) });
    expect(handed).toMatchObject({ ok: true, message: expect.stringContaining("Not saved") });
    const preview = (handed as { data: { preview: string } }).data.preview;
    expect(preview).toMatch(new RegExp(`^/projects/${slug}/retention\\?.*#what-if$`));
    expect((await currentPolicy(projectId)).version).toBe(version);
    const audits = await policyAudits();

    // The retention page reads the proposal from the address and simulates it on arrival.
    const search = Object.fromEntries(new URL(preview, ACTION_ORIGIN).searchParams);
    const proposal = await proposalFromSearch(projectId, search);
    expect(proposal?.policy.ttlDays).toEqual({ NARRATIVE: 60, STRUCTURED: 400, SIDE_EFFECTING: 1 });
    expect(proposal?.rollbackOf).toBeNull();
    expect(proposal?.simulation?.changes).toEqual([
      expect.objectContaining({ field: "ttlDays.SIDE_EFFECTING", before: 730, after: 1, narrowing: true }),
    ]);

    // Its confirmation: without a reason refused, with one saved and audited.
    const confirm = { ...fields, version: String(version) };
    const { reason: _, cannedQuestions: __, ...policyFields } = confirm;
    expect(await act(savePolicyAction as AnyAction, policyFields)).toMatchObject({
      ok: false,
      error: { fields: [{ path: "reason" }] },
    });
    expect(await act(savePolicyAction as AnyAction, { ...policyFields, reason: "storage budget" })).toMatchObject({ ok: true });
    expect(await policyAudits()).toBe(audits + 1);
    expect((await currentPolicy(projectId)).policy.ttlDays.SIDE_EFFECTING).toBe(1);
    // The page renders the same address again once saved: the proposal is the policy in force, not shown again.
    expect(await proposalFromSearch(projectId, search)).toBeNull();
  });
});

describe("rolling back from the history page", () => {
  it("a rollback that gives up evidence opens its preview, where it is saved as the rollback", async () => {
    const { version } = await currentPolicy(projectId);
    // Back to version 1 (side-effecting 730) keeps longer: saved at once.
    const longer = await act(rollbackPolicyAction as AnyAction, { toVersion: "1", version: String(version) });
    expect(longer).toMatchObject({ ok: true, message: expect.stringContaining(`saved as version ${version + 1}`) });

    // Back again to the 1-day version gives up evidence: not saved, handed to the what-if.
    const shorter = await act(rollbackPolicyAction as AnyAction, { toVersion: String(version), version: String(version + 1) });
    expect(shorter).toMatchObject({ ok: true, message: expect.stringContaining("Not rolled back") });
    const preview = (shorter as { data: { preview: string } }).data.preview;
    expect(preview).toBe(`/projects/${slug}/retention?rollbackOf=${version}#what-if`);
    expect((await currentPolicy(projectId)).version).toBe(version + 1);

    const proposal = await proposalFromSearch(projectId, { rollbackOf: String(version) });
    expect(proposal?.rollbackOf).toBe(version);
    const policy = proposal!.policy;
    const saved = await act(savePolicyAction as AnyAction, {
      evidenceHorizonDays: String(policy.evidenceHorizonDays),
      ttlNarrative: String(policy.ttlDays.NARRATIVE),
      ttlStructured: String(policy.ttlDays.STRUCTURED),
      ttlSideEffecting: String(policy.ttlDays.SIDE_EFFECTING),
      evidenceWorkloads: "on",
      systemConfigPrefixes: policy.systemConfigPrefixes.join("\n"),
      version: String(version + 1),
      rollbackOf: String(version),
      reason: "the cut was right",
    });
    expect(saved).toMatchObject({ ok: true });
    const row = await db().retentionPolicyVersion.findFirstOrThrow({ where: { projectId }, orderBy: { version: "desc" } });
    expect(row).toMatchObject({ version: version + 2, rollbackOf: version, reason: "the cut was right" });
  });

  it("a re-simulated rollback is still the rollback while its policy is the version's, as the save judges it (prefixes in any order)", async () => {
    const { version } = await currentPolicy(projectId);
    const policy = (await policyOfVersion(projectId, version))!;
    const fields = {
      evidenceHorizonDays: String(policy.evidenceHorizonDays),
      ttlNarrative: String(policy.ttlDays.NARRATIVE),
      ttlStructured: String(policy.ttlDays.STRUCTURED),
      ttlSideEffecting: String(policy.ttlDays.SIDE_EFFECTING),
      evidenceWorkloads: "on",
      systemConfigPrefixes: [...policy.systemConfigPrefixes, "/opt/extra/"].reverse().join("\n"),
      horizonDays: "7",
      rollbackOf: String(version),
    };
    const simulate = (f: Record<string, string>) =>
      act(simulateAction as AnyAction, f) as Promise<ActionResult<{ rollbackOf: number | null }>>;
    const added = await simulate(fields);
    expect(added).toMatchObject({ ok: true, data: { rollbackOf: null } });
    const reordered = await simulate({ ...fields, systemConfigPrefixes: [...policy.systemConfigPrefixes].reverse().join("\n") });
    expect(policy.systemConfigPrefixes.length).toBeGreaterThan(1);
    expect(reordered).toMatchObject({ ok: true, data: { rollbackOf: version } });
  });
});

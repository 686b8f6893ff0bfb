/**
 * The server-action fuzz slice `npm test` runs: every exported server action under app/ (found on
 * disk) called with hostile forms by callers of every standing and origin; none answers 500, every
 * call that must be refused is, and refused calls change nothing.
 */
import "./next-runtime";
import { beforeAll, describe, expect, it } from "vitest";
import {
  ACTION_FORMS,
  actionFiles,
  formatActionReport,
  inlineActionFiles,
  loadActions,
  makeActionFixture,
  runActionFuzz,
} from "./action-fuzz";
import { db } from "@/lib/db/client";
import type { FuzzAction } from "./actions";

describe("fuzzing every server action", () => {
  let actions: FuzzAction[];
  beforeAll(async () => {
    actions = await loadActions();
  });

  it("finds every action module under app/, and no action written inside a component", () => {
    const files = actionFiles().map((f) => f.slice(process.cwd().length + 1));
    for (const expected of ["app/admin/actions.ts", "app/login/actions.ts", "app/projects/[slug]/settings/actions.ts"])
      expect(files).toContain(expected);
    expect(inlineActionFiles()).toEqual([]);
  });

  it("has a form for every exported action, and none for an action that is gone", () => {
    const ids = actions.map((a) => a.id);
    expect(ids.length).toBeGreaterThanOrEqual(19);
    expect(
      ids.filter((id) => !(id in ACTION_FORMS)),
      "exported actions the fuzz run does not cover",
    ).toEqual([]);
    expect(
      Object.keys(ACTION_FORMS).filter((id) => !ids.includes(id)),
      "forms for actions that no longer exist",
    ).toEqual([]);
  });

  it("the run's checks catch an action that throws, acts for anyone, or changes another project", async () => {
    const fixture = await makeActionFixture("act-check");
    const id = "app/projects/[slug]/spans/[id]/actions.ts#pinAction";
    const fake = (fn: FuzzAction["fn"]): FuzzAction[] => [{ id, file: "fake", name: "pinAction", fn }];
    const run = (fn: FuzzAction["fn"]) => runActionFuzz({ calls: 30, seed: 5, actions: fake(fn), fixture });
    const throwing = await run(async () => {
      throw new Error("boom");
    });
    expect(throwing.serverErrors).toBeGreaterThan(0);
    const forAnyone = await run(async () => ({ ok: true, message: "done" }));
    expect(forAnyone.wrongRefusals).toBeGreaterThan(0);
    expect(forAnyone.serverErrors).toBe(0);
    // Refuses everyone, yet flips a hold in the other project: caught by the data check.
    const [sessionId, spanId] = [fixture.other.sessionIds[0]!, fixture.other.spanIds[0]!];
    const leaky = await run(async () => {
      const original = await db().spanOriginal.findUniqueOrThrow({ where: { sessionId_spanId: { sessionId, spanId } } });
      await db().spanOriginal.update({ where: { sessionId_spanId: { sessionId, spanId } }, data: { pinned: !original.pinned } });
      return { ok: false, error: { code: "NOT_FOUND", message: "No such project" } };
    });
    expect(leaky.changedByRefusal).toBeGreaterThan(0);
  }, 120_000);

  it("hostile calls: no 500, every required refusal, and refused calls change nothing", async () => {
    const fixture = await makeActionFixture();
    const report = await runActionFuzz({
      calls: Number(process.env.CUSTODIAN_FUZZ_ACTION_CALLS ?? 500),
      seed: Number(process.env.CUSTODIAN_FUZZ_SEED ?? 1),
      actions,
      fixture,
    });
    const summary = formatActionReport(report);
    expect(Object.keys(report.byAction).sort()).toEqual(actions.map((a) => a.id).sort());
    expect(report.serverErrors, summary).toBe(0);
    expect(report.wrongRefusals, summary).toBe(0);
    expect(report.changedByRefusal, summary).toBe(0);
    // The data check saw refused batches, and acts went through too.
    expect(report.refusedBatches).toBeGreaterThan(10);
    expect(report.byStatus.ok ?? 0).toBeGreaterThan(10);
  }, 600_000);
});

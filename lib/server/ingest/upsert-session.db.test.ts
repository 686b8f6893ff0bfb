import { signal } from "@/lib/db/test-signal";
import { describe, expect, it } from "vitest";
import { db, rawTransaction } from "@/lib/db/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { upsertSession } from "./append";

describe("upsertSession", () => {
  it("of concurrent first submissions of one session, exactly one reports that it created it", async () => {
    const project = await makeTestProject("upsert-race");
    for (let round = 0; round < 5; round++) {
      const externalId = `race-${round}`;
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => upsertSession(project.id, { externalId, runtime: "claude-code", cwd: "/srv" })),
      );
      expect(answers.filter((a) => a.created)).toHaveLength(1);
      expect(new Set(answers.map((a) => a.session.id)).size).toBe(1);
      expect(await db().session.count({ where: { projectId: project.id, externalId } })).toBe(1);
    }
  });

  it("inside transactions, the submission whose creator rolled back creates it", async () => {
    const project = await makeTestProject("upsert-rollback");
    const input = { externalId: "tx", runtime: "codex" };
    const { reached: firstCreated, fire: created } = signal();
    const { reached: rolledBack, fire: rollBack } = signal();
    const first = rawTransaction(async (client) => {
      expect((await upsertSession(project.id, input, client)).created).toBe(true);
      created();
      await rolledBack;
      throw new Error("rolled back");
    });
    await firstCreated;
    // Another request (outside the transaction's flow) waits on its row, and creates the session once it rolls back.
    const second = upsertSession(project.id, input);
    await new Promise((r) => setTimeout(r, 100));
    rollBack();
    await expect(first).rejects.toThrow("rolled back");
    expect((await second).created).toBe(true);
    expect(await db().session.count({ where: { projectId: project.id, externalId: "tx" } })).toBe(1);
  });

  it("keeps what a later submission leaves out, and changes what it says", async () => {
    const project = await makeTestProject("upsert-fields");
    const startedAt = new Date("2026-11-20T08:00:00.123Z");
    const first = await upsertSession(project.id, { externalId: "f", runtime: "codex", title: "T", cwd: "/a", startedAt });
    expect(first.session).toMatchObject({ externalId: "f", runtime: "codex", title: "T", cwd: "/a", startedAt });
    const again = await upsertSession(project.id, { externalId: "f", runtime: "claude-code", cwd: null });
    expect(again).toMatchObject({ created: false, session: { id: first.session.id, title: "T", cwd: null, startedAt } });
    const row = await db().session.findUniqueOrThrow({ where: { id: first.session.id } });
    expect(row).toMatchObject({ runtime: "claude-code", title: "T", cwd: null, startedAt });
  });
});

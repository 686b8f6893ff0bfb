import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import type { Actor } from "@/lib/server/audit";
import { createApiKey, revokeApiKey } from "./api-keys";
import { makeTestProject } from "./test-project";

const admin: Actor = { type: "USER", id: "admin-keys", label: "keys-admin@example.com" };

describe("API keys in the audit log", () => {
  it("creating a key writes api_key.create naming who created which key, in the key's transaction", async () => {
    const project = await makeTestProject("keys-audit");
    const key = await createApiKey(project.id, "runtime", "VIEWER", admin);
    const audit = await db().auditLog.findMany({ where: { targetId: key.id } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      projectId: project.id,
      act: "api_key.create",
      actorType: "USER",
      actorId: "admin-keys",
      actorLabel: "keys-admin@example.com",
      targetType: "api_key",
      after: { name: "runtime", prefix: key.prefix, role: "VIEWER" },
    });
    // The key itself is never in the log.
    expect(JSON.stringify(audit[0]!.after)).not.toContain(key.key);
  });

  it("a key cannot be created without an actor: nothing is written", async () => {
    const project = await makeTestProject("keys-no-actor");
    const anonymous = createApiKey as unknown as (projectId: string, name: string, role: string) => Promise<unknown>;
    await expect(anonymous(project.id, "nobody's", "OPERATOR")).rejects.toThrow(/actor/);
    expect(await db().apiKey.count({ where: { projectId: project.id } })).toBe(0);
  });

  it("revoking a key writes api_key.revoke with the actor; revoking again writes nothing more", async () => {
    const project = await makeTestProject("keys-revoke");
    const key = await createApiKey(project.id, "runtime", "OPERATOR", { type: "SYSTEM", label: "cli" });
    await revokeApiKey(key.id, admin);
    await revokeApiKey(key.id, admin);
    const rows = await db().auditLog.findMany({ where: { targetId: key.id }, orderBy: { at: "asc" } });
    expect(rows.map((r) => [r.act, r.actorLabel])).toEqual([
      ["api_key.create", "cli"],
      ["api_key.revoke", "keys-admin@example.com"],
    ]);
    expect(rows[1]!.before).toEqual({ revokedAt: null });
  });
});

import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getPolicy, PUT as putPolicy } from "@/app/api/v1/retention/policy/route";
import { POST as simulate } from "@/app/api/v1/retention/simulations/route";
import { POST as reclaim } from "@/app/api/v1/reclamations/route";
import { POST as createSession } from "@/app/api/v1/sessions/route";
import { POST as appendSpans } from "@/app/api/v1/sessions/[id]/spans/route";
import { db } from "@/lib/db/client";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { listPolicyVersions, rollbackPolicy } from "@/lib/server/retention";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function call(handler: Handler, key: string, method: string, body?: unknown, params: Record<string, string> = {}) {
  const response = await handler(
    new Request("http://custodian.test/api/v1/x", {
      method,
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    { params: Promise.resolve(params) },
  );
  return { status: response.status, json: await response.json() };
}

const DAY = 86_400_000;
const body = JSON.stringify({ path: "/etc/app/conf.yaml", content: "debug: true" });

describe("retention API: policy versions and what-if", () => {
  let key: string;
  let projectId: string;
  let sessionId: string;
  let writeId: string;

  beforeAll(async () => {
    const project = await makeTestProject("what-if");
    projectId = project.id;
    key = (await createApiKey(project.id, "owner", "ADMIN", { type: "SYSTEM", label: "test" })).key;
    const session = await call(createSession, key, "POST", { externalId: "run-1", runtime: "claude-code", cwd: "/srv/app" });
    sessionId = session.json.id;
    const now = new Date().toISOString();
    const spans = await call(
      appendSpans,
      key,
      "POST",
      {
        spans: [
          { seq: 0, kind: "MESSAGE", role: "user", occurredAt: now, body: "Turn on debug logging." },
          { seq: 1, kind: "TOOL_CALL", toolName: "write_file", toolInput: JSON.parse(body), occurredAt: now, body },
        ],
      },
      { id: sessionId },
    );
    expect(spans.status).toBe(200);
    const write = spans.json.spans[1];
    expect(write.class).toBe("SIDE_EFFECTING");
    writeId = write.id;
    const compacted = await call(reclaim, key, "POST", {
      sessionId,
      spanIds: [writeId],
      summary: {
        text: "The agent configured the application's YAML configuration.",
        pointers: [{ spanId: writeId, byteStart: 0, byteEnd: Buffer.byteLength(body), sha256: write.sha256 }],
      },
    });
    expect(compacted.status).toBe(200);
    expect(compacted.json.results[0].verdict).toBe("RECLAIM");
    const original = await db().spanOriginal.findUniqueOrThrow({ where: { sessionId_spanId: { sessionId, spanId: writeId } } });
    expect(original.bytes).not.toBeNull();
    expect(createHash("sha256").update(original.bytes!).digest("hex")).toBe(write.sha256);
  });

  it("a side-effecting TTL of 1 day deletes the held original and turns the system-config YES into INSUFFICIENT_EVIDENCE within two days", async () => {
    const started = Date.now();
    const { status, json } = await call(simulate, key, "POST", { policy: { ttlDays: { SIDE_EFFECTING: 1 } }, horizonDays: 30 });
    expect(status).toBe(200);
    expect(json.days).toHaveLength(30);
    // The write's original and the summary's (side-effecting through its root) go at the next sweeps.
    const deletion = json.deletions.find((d: { spanId: string }) => d.spanId === writeId);
    expect(deletion).toMatchObject({ sessionId, class: "SIDE_EFFECTING", bytes: Buffer.byteLength(body) });
    expect(new Date(deletion.at).getTime()).toBeLessThanOrEqual(started + 2 * DAY);
    const deleted = json.days
      .slice(0, 2)
      .reduce((n: number, d: { deletedByClass: { SIDE_EFFECTING: number } }) => n + d.deletedByClass.SIDE_EFFECTING, 0);
    expect(deleted).toBe(json.deletions.filter((d: { class: string }) => d.class === "SIDE_EFFECTING").length);
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect(json.days.at(-1).storedByClass.SIDE_EFFECTING).toBe(0);
    const change = json.questionsAffected.find(
      (q: { questionId: string; sessionId: string }) => q.questionId === "modified-system-config" && q.sessionId === sessionId,
    );
    expect(change).toMatchObject({ from: "YES", to: "INSUFFICIENT_EVIDENCE", spanIds: [writeId] });
    expect(new Date(change.at).getTime()).toBeLessThanOrEqual(started + 2 * DAY);
    expect(json.proposed.expiring.SIDE_EFFECTING).toBeGreaterThanOrEqual(1);
    // Per day: the bytes freed by class, the spans the proposal turns EXPIRING (day 0), and their sessions.
    const freedSideEffecting = json.days.reduce(
      (n: number, d: { freedByClass: { SIDE_EFFECTING: number } }) => n + d.freedByClass.SIDE_EFFECTING,
      0,
    );
    expect(freedSideEffecting).toBeGreaterThanOrEqual(Buffer.byteLength(body));
    expect(json.days[0].turnedExpiring.SIDE_EFFECTING).toBe(json.proposed.expiring.SIDE_EFFECTING);
    expect(json.current.days[0].turnedExpiring.SIDE_EFFECTING).toBe(0);
    expect(json.sessions).toContainEqual(
      expect.objectContaining({
        sessionId,
        class: "SIDE_EFFECTING",
        date: json.days[0].date,
        turnedExpiring: expect.any(Number),
      }),
    );
    expect(json.sessionsTruncated).toBe(false);
    expect(json.current.expiring.SIDE_EFFECTING).toBe(0);
    expect(json.changes).toEqual([expect.objectContaining({ field: "ttlDays.SIDE_EFFECTING", narrowing: true })]);
  });

  it("the current policy changes no answer and deletes nothing evidence-bearing within the horizon", async () => {
    const { status, json } = await call(simulate, key, "POST", { policy: {}, horizonDays: 90 });
    expect(status).toBe(200);
    expect(json.questionsAffected).toEqual([]);
    expect(json.current.questionsAffected).toEqual([]);
    expect(json.days.every((d: { deletedByClass: { SIDE_EFFECTING: number } }) => d.deletedByClass.SIDE_EFFECTING === 0)).toBe(
      true,
    );
    expect(json.deletions.some((d: { spanId: string }) => d.spanId === writeId)).toBe(false);
    expect(json.changes).toEqual([]);
  });

  it("bad input is a 422 naming the field", async () => {
    const cases: Array<[unknown, string]> = [
      [{ policy: { ttlDays: { SIDE_EFFECTING: -1 } } }, "policy.ttlDays.SIDE_EFFECTING"],
      [{ policy: { ttlDays: { STRUCTURED: 10_000_000 } } }, "policy.ttlDays.STRUCTURED"],
      [{ policy: { ttlDays: { SECRET: 3 } } }, "policy.ttlDays"],
      [{ policy: { retainForever: true } }, "policy"],
      [{ policy: {}, horizonDays: 3651 }, "horizonDays"],
      [{ policy: { systemConfigPrefixes: ["etc/"] } }, "policy.systemConfigPrefixes.0"],
    ];
    for (const [input, field] of cases) {
      const { status, json } = await call(simulate, key, "POST", input);
      expect(status, JSON.stringify(input)).toBe(422);
      expect(json.error.fields.map((f: { path: string }) => f.path)).toContain(field);
    }
  });

  it("PUT: negative, fractional and huge TTLs or horizons, unknown fields and a bad version are a 422 naming the field; nothing is saved", async () => {
    const before = await call(getPolicy, key, "GET");
    const audits = await db().auditLog.count({ where: { projectId } });
    const version = before.json.version;
    const cases: Array<[unknown, string]> = [
      [{ policy: { ttlDays: { SIDE_EFFECTING: -1 } }, reason: "r", version }, "policy.ttlDays.SIDE_EFFECTING"],
      [{ policy: { ttlDays: { NARRATIVE: 1.5 } }, reason: "r", version }, "policy.ttlDays.NARRATIVE"],
      [{ policy: { ttlDays: { STRUCTURED: 10_000_000 } }, reason: "r", version }, "policy.ttlDays.STRUCTURED"],
      [{ policy: { ttlDays: { STRUCTURED: 36_501 } }, reason: "r", version }, "policy.ttlDays.STRUCTURED"],
      [{ policy: { evidenceHorizonDays: 0 }, reason: "r", version }, "policy.evidenceHorizonDays"],
      [{ policy: { evidenceHorizonDays: 1e12 }, reason: "r", version }, "policy.evidenceHorizonDays"],
      [{ policy: { ttlDays: { SECRET: 3 } }, reason: "r", version }, "policy.ttlDays"],
      [{ policy: { retainForever: true }, reason: "r", version }, "policy"],
      [{ policy: {}, reason: "r", version, force: true }, "(body)"],
      [{ policy: { systemConfigPrefixes: ["etc/"] }, reason: "r", version }, "policy.systemConfigPrefixes.0"],
      [{ policy: {}, reason: "r" }, "version"],
      [{ policy: {}, reason: "r", version: -1 }, "version"],
      [{ policy: {}, reason: "r", version: String(version) }, "version"],
    ];
    for (const [input, field] of cases) {
      const { status, json } = await call(putPolicy, key, "PUT", input);
      expect(status, JSON.stringify(input)).toBe(422);
      expect(
        json.error.fields.map((f: { path: string }) => f.path),
        JSON.stringify(input),
      ).toContain(field);
    }
    expect((await call(getPolicy, key, "GET")).json).toEqual(before.json);
    expect(await db().auditLog.count({ where: { projectId } })).toBe(audits);
  });

  it("saves versions: a shortening change needs a reason, a stale version is a 409, a rollback is a new version", async () => {
    const first = await call(getPolicy, key, "GET");
    expect(first.status).toBe(200);
    expect(first.json.version).toBe(0);
    expect(first.json.policy.ttlDays.SIDE_EFFECTING).toBe(730);

    const noReason = await call(putPolicy, key, "PUT", { policy: { ttlDays: { SIDE_EFFECTING: 1 } }, version: 0 });
    expect(noReason.status).toBe(422);
    expect(noReason.json.error.fields.map((f: { path: string }) => f.path)).toEqual(["reason"]);

    const longer = await call(putPolicy, key, "PUT", { policy: { ttlDays: { NARRATIVE: 60 } }, version: 0 });
    expect(longer.status).toBe(200);
    expect(longer.json.version).toBe(1);

    const stale = await call(putPolicy, key, "PUT", { policy: { ttlDays: { SIDE_EFFECTING: 1 } }, reason: "x", version: 0 });
    expect(stale.status).toBe(409);

    const shorter = await call(putPolicy, key, "PUT", {
      policy: { ttlDays: { SIDE_EFFECTING: 1 } },
      reason: "storage budget cut",
      version: 1,
    });
    expect(shorter.status).toBe(200);
    expect(shorter.json.version).toBe(2);
    expect(shorter.json.changes).toEqual([{ field: "ttlDays.SIDE_EFFECTING", before: 730, after: 1, narrowing: true }]);
    // Saved TTLs apply to the originals already held.
    const original = await db().spanOriginal.findUniqueOrThrow({ where: { sessionId_spanId: { sessionId, spanId: writeId } } });
    expect(original.expiresAt!.getTime()).toBeLessThan(Date.now() + 2 * DAY);

    const audit = await db().auditLog.findMany({ where: { projectId, act: { startsWith: "policy." } }, orderBy: { at: "asc" } });
    expect(audit.map((a) => [a.act, a.reason])).toEqual([
      ["policy.update", null],
      ["policy.update", "storage budget cut"],
    ]);
    expect(audit[1]!.after).toMatchObject({ version: 2, changes: [{ field: "ttlDays.SIDE_EFFECTING", before: 730, after: 1 }] });

    await expect(
      rollbackPolicy(projectId, { toVersion: 1, expectedVersion: 1 }, { type: "USER", label: "a" }),
    ).rejects.toMatchObject({
      code: "CONFLICT",
    });
    const rolledBack = await rollbackPolicy(
      projectId,
      { toVersion: 1, expectedVersion: 2 },
      { type: "USER", label: "owner@example.com" },
    );
    expect(rolledBack.version).toBe(3);
    const after = await call(getPolicy, key, "GET");
    expect(after.json).toMatchObject({ version: 3, policy: { ttlDays: { NARRATIVE: 60, SIDE_EFFECTING: 730 } } });
    const history = await listPolicyVersions(projectId);
    expect(history.map((v) => [v.version, v.rollbackOf])).toEqual([
      [3, 1],
      [2, null],
      [1, null],
      [0, null],
    ]);
    const restored = await db().spanOriginal.findUniqueOrThrow({ where: { sessionId_spanId: { sessionId, spanId: writeId } } });
    expect(restored.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 700 * DAY);
  });
});

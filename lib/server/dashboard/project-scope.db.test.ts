import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "@/lib/server/admin";
import { makeTestProject, TEST_ACTOR } from "@/lib/server/admin/test-project";
import { reclaim } from "@/lib/server/gate/reclaim";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { pinOriginal } from "@/lib/server/provenance";
import { listAuditPage } from "@/lib/server/audit";
import { evidencePicker } from "./evidence-picker";
import { refusalFeed } from "./refusal-feed";
import { listKeyPage } from "./key-list";
import { getSessionOverview } from "./session-detail";
import { listSessionPage } from "./session-list";
import { getSpanDetail } from "./span-detail";
import { requireSessionsOfProject } from "./span-project";

/** A project with one session (its own runtime), a refused reclamation, a pin in the audit log and a key. */
async function seededProject(label: string, secret: string) {
  const project = await makeTestProject(label);
  const { session } = await upsertSession(project.id, {
    externalId: `${label}-s`,
    runtime: `rt-${label}`,
    title: `${label} ${secret}`,
  });
  const [span] = await appendSpans(project.id, session.id, [
    {
      seq: 0,
      kind: "TOOL_CALL",
      toolName: "write_file",
      occurredAt: new Date(),
      body: new TextEncoder().encode(`{"path":"/etc/${secret}.conf"}`),
    },
  ]);
  await reclaim({
    projectId: project.id,
    sessionId: session.id,
    selection: { fromSeq: 0, toSeq: 0 },
    summary: { text: "wrote config", pointers: [] },
    dryRun: false,
    requester: "test",
  });
  await pinOriginal({ projectId: project.id, spanId: span!.id }, TEST_ACTOR, `hold ${secret}`);
  const key = await createApiKey(project.id, `key ${label}`, "VIEWER", TEST_ACTOR);
  return { project, session, span: span!, key };
}

describe("every dashboard read is scoped by the project in its query", () => {
  it("a read with project A's id never returns project B's rows; B's ids are NOT_FOUND in A", async () => {
    const secret = randomBytes(6).toString("hex");
    const a = await seededProject("scope-a", "visible");
    const b = await seededProject("scope-b", secret);
    const json = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === "bigint" ? String(v) : v));

    const list = await listSessionPage(a.project.id, {});
    expect(list.rows.map((r) => r.id)).toEqual([a.session.id]);
    expect(list.total).toBe(1);
    expect(list.runtimes).toEqual(["rt-scope-a"]);
    expect((await listSessionPage(a.project.id, { q: secret })).rows).toEqual([]);

    await expect(getSessionOverview(a.project.id, b.session.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await getSessionOverview(a.project.id, a.session.id)).session.id).toBe(a.session.id);
    await expect(getSpanDetail(a.project.id, b.span.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await getSpanDetail(a.project.id, a.span.id)).span.id).toBe(a.span.id);

    const feed = await refusalFeed(a.project.id, {});
    const groups = feed.rows.flatMap((r) => (r.kind === "refusal" ? [r.group] : []));
    expect(groups.length).toBeGreaterThan(0);
    expect(new Set(groups.map((g) => g.sessionId))).toEqual(new Set([a.session.id]));
    expect(feed.counts.reduce((n, c) => n + c.count, 0)).toBe(feed.totals.refusals);
    const asked = await refusalFeed(a.project.id, { session: b.session.id });
    expect(asked.rows).toEqual([]);
    expect(asked.counts).toEqual([]);
    expect((await refusalFeed(b.project.id, {})).rows.length).toBeGreaterThan(0);

    expect((await evidencePicker(a.project.id)).sessions.map((s) => s.id)).toEqual([a.session.id]);

    const audit = await listAuditPage(a.project.id, {});
    expect(audit.rows.length).toBeGreaterThan(0);
    expect(json(audit)).not.toContain(secret);
    const aimed = await listAuditPage(a.project.id, { targetType: "span", targetId: b.span.id });
    expect(aimed.rows).toEqual([]);
    expect(json(aimed.rows)).not.toContain(b.span.id);

    const settings = await listKeyPage(a.project.id, {});
    expect(settings.rows.map((k) => k.id)).toEqual([a.key.id]);
    await expect(revokeApiKey(b.key.id, TEST_ACTOR, a.project.id)).rejects.toMatchObject({ code: "NOT_FOUND" });

    await expect(requireSessionsOfProject(a.project.id, [a.session.id, b.session.id])).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(requireSessionsOfProject(a.project.id, [a.session.id, a.session.id])).resolves.toBeUndefined();

    // Nothing of B reached any of A's reads.
    for (const read of [list, feed, await evidencePicker(a.project.id), settings]) expect(json(read)).not.toContain(secret);
  });
});

import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { db } from "@/lib/db/client";
import { auditCsvChunks } from "./export";
import { listAuditPage } from "./page";
import { parseAuditQuery } from "./page-query";
import { type AuditEntry, writeAudits } from "./write";

const DAY = 86_400_000;
const START = Date.parse("2026-10-01T00:00:00.000Z");

/** 120 events over 12 days: three people, two acts, ten spans; some at the very same instant. */
function events(projectId: string | null, spans: string[]): AuditEntry[] {
  return Array.from({ length: 120 }, (_, i): AuditEntry => {
    // Events 0..9 share one instant: paging and the export must still neither repeat nor skip one.
    const at = new Date(i < 10 ? START : START + Math.floor(i / 10) * DAY + (i % 10) * 60_000);
    const actor = { type: "USER" as const, label: ["ada@example.com", "bo@example.com", "cy@example.com"][i % 3]! };
    const targetId = spans[i % spans.length]!;
    return i % 4 === 0
      ? {
          projectId,
          actor,
          act: "original.unpin",
          targetType: "span",
          targetId,
          before: { pinned: true },
          after: { pinned: false },
          reason: `r${i}`,
          at,
        }
      : {
          projectId,
          actor,
          act: "original.pin",
          targetType: "span",
          targetId,
          before: { pinned: false },
          after: { pinned: true },
          at,
        };
  });
}

describe("a project's audit log, paged and filtered in the database", () => {
  it("pages with a total, sorts, filters by person, act, day range and target, and keeps to its project", async () => {
    const project = await makeTestProject("audit-page");
    const other = await makeTestProject("audit-other");
    const spans = Array.from({ length: 10 }, () => randomUUID());
    await writeAudits(db(), events(project.id, spans));
    // Another project's events and instance-level ones (no project) must never show.
    await writeAudits(db(), [...events(other.id, spans), ...events(null, spans).slice(0, 5)]);

    const first = await listAuditPage(project.id, {});
    expect(first.total).toBe(120);
    expect(first.pages).toBe(3);
    expect(first.rows).toHaveLength(50);
    expect(first.people).toEqual(["ada@example.com", "bo@example.com", "cy@example.com"]);
    expect(first.acts).toEqual(["original.pin", "original.unpin"]);
    const times = first.rows.map((r) => r.at.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const all = [
      ...first.rows,
      ...(await listAuditPage(project.id, { page: "2" })).rows,
      ...(await listAuditPage(project.id, { page: "3" })).rows,
    ];
    expect(all).toHaveLength(120);
    // Newest first, id breaking ties (the back half of the list is read from its other end and turned round).
    const newestFirst = [...all].sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : -1));
    expect(all.map((r) => r.id)).toEqual(newestFirst.map((r) => r.id));
    expect(new Set(all.map((r) => r.id)).size).toBe(120);
    const oldest = await listAuditPage(project.id, { sort: "oldest", page: "3" });
    expect(oldest.rows).toHaveLength(20);
    expect(oldest.rows.at(-1)!.id).toBe(first.rows[0]!.id);

    // A page past the end shows the last one.
    const past = await listAuditPage(project.id, { page: "99" });
    expect(past.page).toBe(3);
    expect(past.rows.map((r) => r.id)).toEqual(all.slice(100).map((r) => r.id));

    const bo = await listAuditPage(project.id, { person: "bo@example.com" });
    expect(bo.total).toBe(40);
    expect(new Set(bo.rows.map((r) => r.actorLabel))).toEqual(new Set(["bo@example.com"]));
    expect((await listAuditPage(project.id, { person: "bo@example" })).total).toBe(0); // exact, not a prefix

    const unpins = await listAuditPage(project.id, { act: "original.unpin" });
    expect(unpins.total).toBe(30);
    expect(unpins.rows[0]).toMatchObject({ act: "original.unpin", before: { pinned: true }, after: { pinned: false } });
    expect((await listAuditPage(project.id, { act: "original.unpin", person: "ada@example.com" })).total).toBe(10);

    // Days are whole and inclusive, in UTC: 2026-10-02 .. 2026-10-03 is events 10..29.
    const days = await listAuditPage(project.id, { from: "2026-10-02", to: "2026-10-03" });
    expect(days.total).toBe(20);
    expect((await listAuditPage(project.id, { to: "2026-10-01" })).total).toBe(10);
    expect((await listAuditPage(project.id, { from: "2026-10-12" })).total).toBe(10);

    const target = await listAuditPage(project.id, { targetType: "span", targetId: spans[3]! });
    expect(target.total).toBe(12);
    expect((await listAuditPage(project.id, { targetType: "session", targetId: spans[3]! })).total).toBe(0);

    await expect(listAuditPage(project.id, { from: "2026-02-30" })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      options: { fields: [{ path: "from" }] },
    });
  });

  it("exports every matching event, not one page, in chunks continuing on (at, id)", async () => {
    const project = await makeTestProject("audit-csv");
    await writeAudits(db(), events(project.id, [randomUUID(), randomUUID()]));
    for (const sort of ["newest", "oldest"] as const) {
      const query = parseAuditQuery({ sort, act: "original.pin" });
      const chunks: string[] = [];
      for await (const chunk of auditCsvChunks(project.id, project.slug, query, 7)) chunks.push(chunk);
      expect(chunks[0]).toMatch(/^when,who,who_type,act,act_code,/);
      const lines = chunks.join("").split("\r\n").filter(Boolean).slice(1);
      expect(lines).toHaveLength(90);
      expect(chunks.length).toBe(Math.ceil(90 / 7));
      const ids = lines.map((line) => line.slice(line.lastIndexOf(",") + 1));
      expect(new Set(ids).size).toBe(90);
      // The same order the pages show.
      const paged = [
        ...(await listAuditPage(project.id, { ...query, page: 1 })).rows,
        ...(await listAuditPage(project.id, { ...query, page: 2 })).rows,
      ];
      expect(ids).toEqual(paged.map((r) => r.id));
      expect(lines.every((line) => line.includes(",Pinned original,original.pin,"))).toBe(true);
    }
    // Nothing matching: the header alone.
    const none: string[] = [];
    for await (const chunk of auditCsvChunks(project.id, project.slug, parseAuditQuery({ person: "nobody" }))) none.push(chunk);
    expect(none).toEqual([
      "when,who,who_type,act,act_code,target,target_type,target_id,changes,reason,before_json,after_json,event_id\r\n",
    ]);
  });
});

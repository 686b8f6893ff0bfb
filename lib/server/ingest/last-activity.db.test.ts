import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { appendSpans, upsertSession } from "./append";

const span = (seq: number, occurredAt: Date) => ({
  seq,
  kind: "MESSAGE" as const,
  occurredAt,
  body: new TextEncoder().encode(`message ${seq}`),
});

describe("a session's last activity", () => {
  it("is the transcript's own time, not when it was received: set by the first spans, moved forward only", async () => {
    const project = await makeTestProject("last-activity");
    const { session } = await upsertSession(project.id, { externalId: "imported-late", runtime: "codex" });
    const times = async () =>
      db().session.findUniqueOrThrow({ where: { id: session.id }, select: { lastActivityAt: true, createdAt: true } });
    const lastYear = new Date("2025-09-14T10:00:00.000Z");

    await appendSpans(project.id, session.id, [span(0, lastYear), span(1, new Date(lastYear.getTime() + 60_000))]);
    const first = await times();
    expect(first.lastActivityAt).toEqual(new Date(lastYear.getTime() + 60_000));
    expect(first.createdAt.getTime()).toBeGreaterThan(Date.now() - 3_600_000);

    // An earlier span arriving later does not move it back; the same spans again change nothing.
    await appendSpans(project.id, session.id, [span(2, new Date(lastYear.getTime() - 60_000))]);
    await appendSpans(project.id, session.id, [span(0, lastYear)]);
    expect((await times()).lastActivityAt).toEqual(new Date(lastYear.getTime() + 60_000));

    const later = new Date("2025-09-15T08:30:00.000Z");
    await appendSpans(project.id, session.id, [span(3, later)]);
    expect((await times()).lastActivityAt).toEqual(later);
  });
});

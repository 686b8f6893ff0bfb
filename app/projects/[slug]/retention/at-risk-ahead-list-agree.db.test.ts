/**
 * The overview's "spans at risk ahead" and the list its link opens (the retention page's originals
 * at risk, for the same range) count the same spans: in every range, the chart's held spans are the
 * list's rows, each bucket's expiring spans are the rows whose expiry falls in it, and its first
 * expiry is the list's first row.
 */
import { describe, expect, it } from "vitest";
import { prepareAtRiskAhead } from "@/components/charts/at-risk-ahead-series";
import { db } from "@/lib/db/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { projectOverview } from "@/lib/server/overview";
import { listAtRiskOriginals } from "@/lib/server/retention";
import { atRiskRange } from "./at-risk-range";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * A session whose writes happened `daysAgo`, each original expiring after `expiresIn` (ms from
 * now): ahead of it and before the horizon, at risk; one past it, lost now; a pinned one, kept.
 */
async function session(projectId: string, label: string, daysAgo: number, originals: Array<number | "pinned">) {
  const { session } = await upsertSession(projectId, { externalId: label, runtime: "test", title: label });
  const occurredAt = new Date(Date.now() - daysAgo * DAY_MS);
  const spans = await appendSpans(
    projectId,
    session.id,
    originals.map((_, seq) => ({
      seq,
      kind: "TOOL_CALL" as const,
      toolName: "write_file",
      occurredAt,
      body: new TextEncoder().encode(JSON.stringify({ path: `/etc/app/${label}-${seq}.yaml`, content: "x" })),
    })),
  );
  for (const [i, expiresIn] of originals.entries())
    await db().spanOriginal.update({
      where: { sessionId_spanId: { sessionId: session.id, spanId: spans[i]!.id } },
      data: expiresIn === "pinned" ? { pinned: true } : { expiresAt: new Date(Date.now() + expiresIn) },
    });
}

describe("spans at risk ahead and the list its link opens", () => {
  it("count the same spans in every range: held, per bucket, and the first expiry", async () => {
    const project = await makeTestProject("at-risk-ahead-agree");
    // Active yesterday: two expire within the week (one in the coming hours), one later, two are
    // already past (lost now, in neither; one earlier in this very hour, which the chart's kept
    // counts hold beside the hour's originals still ahead), one pinned (kept, in neither).
    const earlierThisHour = -Math.floor((Date.now() % HOUR_MS) / 2) - 1;
    await session(project.id, "recent", 1, [3 * HOUR_MS, 2 * DAY_MS + HOUR_MS, 40 * DAY_MS, -HOUR_MS, earlierThisHour, "pinned"]);
    // Active twenty days ago: one within the week, one after a month.
    await session(project.id, "older", 20, [5 * DAY_MS, 35 * DAY_MS]);
    // Active sixty days ago: one within the day.
    await session(project.id, "oldest", 60, [2 * HOUR_MS]);
    const day = (ago: number) => new Date(Date.now() - ago * DAY_MS).toISOString().slice(0, 10);

    const ranges = [
      [{ range: "24h" }, 0],
      [{ range: "7d" }, 3],
      [{ range: "30d" }, 5],
      [{ range: "90d" }, 6],
      [{ from: day(25), to: day(15) }, 2],
    ] as const;
    for (const [range, held] of ranges) {
      const now = new Date();
      const overview = await projectOverview(
        project.id,
        "range" in range ? { range: range.range, now } : { range: "7d", days: range, now },
      );
      const ahead = overview.atRiskAhead;
      // The list the chart's link opens, read as the retention page reads it.
      const link = new URL(prepareAtRiskAhead(overview, project.slug).link.href, "http://x");
      expect(link.pathname).toBe(`/projects/${project.slug}/retention`);
      const scoped = atRiskRange(Object.fromEntries(link.searchParams), now);
      expect(scoped).not.toBeNull();
      const list = await listAtRiskOriginals(project.id, 1000, now, scoped!.window);

      expect({ range, held: ahead.held }).toEqual({ range, held });
      expect(list).toHaveLength(held);
      // Each bucket of the chart: the list's rows whose expiry falls in it.
      const step = ahead.window.bucket === "hour" ? HOUR_MS : DAY_MS;
      const first = Date.parse(ahead.window.from);
      const perBucket = new Map<string, number>();
      for (const row of list) {
        const i = Math.floor((row.expiresAt.getTime() - first) / step);
        if (i >= ahead.window.buckets) continue;
        const at = new Date(first + i * step).toISOString();
        perBucket.set(at, (perBucket.get(at) ?? 0) + 1);
      }
      expect(Object.fromEntries(ahead.series.map((p) => [p.at, p.expiring]))).toEqual(Object.fromEntries(perBucket));
      // The first expiry, to the hour the kept counts hold it by.
      const firstRow = list[0]?.expiresAt.getTime();
      expect(ahead.firstExpiry).toBe(firstRow === undefined ? null : new Date(firstRow - (firstRow % HOUR_MS)).toISOString());
    }
  });
});

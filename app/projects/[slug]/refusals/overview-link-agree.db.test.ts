/**
 * The overview's refusals figure and the list its link opens count the same refusals: in every
 * range, the link says "See the N refusals" and the refusals list, opened with the link's own
 * query, says "N refusals in M compactions", refusals on either side of where a range starts
 * included.
 */
import { describe, expect, it } from "vitest";
import { prepareOverview } from "@/components/charts/overview-series";
import { db } from "@/lib/db/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { refusalFeed } from "@/lib/server/dashboard";
import { refusalRowsOf } from "@/lib/server/dashboard/refusals.testkit";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { projectOverview } from "@/lib/server/overview";

const MIN_MS = 60_000;
const HOUR_MS = 60 * MIN_MS;
const DAY_MS = 24 * HOUR_MS;
const NOW = new Date("2026-12-06T10:30:00.000Z");
const at = (iso: string) => new Date(iso);

describe("the overview's refusals link", () => {
  it("says as many refusals as the list it opens shows, in every range", async () => {
    const project = await makeTestProject("overview-refusals-link");
    const { session } = await upsertSession(project.id, { externalId: "s", runtime: "test", title: "Refused" });
    const [span] = await appendSpans(project.id, session.id, [
      { seq: 0, kind: "TOOL_CALL", toolName: "Bash", occurredAt: NOW, body: new TextEncoder().encode('{"command":"ls"}') },
    ]);
    // Two refusals per request; requests a minute either side of where each range starts.
    const times = [
      at("2026-12-06T10:00:00.000Z"), // this hour
      at("2026-12-05T11:01:00.000Z"), // inside 24h (from 11:00 yesterday)
      at("2026-12-05T10:59:00.000Z"), // outside 24h, a rolling 24 hours would take it
      at("2026-11-30T00:01:00.000Z"), // inside 7d (from Nov 30)
      at("2026-11-29T23:59:00.000Z"), // outside 7d
      at("2026-11-29T11:00:00.000Z"), // outside 7d, a rolling 7 days would take it
      new Date(NOW.getTime() - 20 * DAY_MS),
    ];
    await db().refusalEvent.createMany({
      data: refusalRowsOf(
        { projectId: project.id, sessionId: session.id, spanId: span!.id },
        times.map((occurredAt) => ({
          occurredAt,
          reason: "a summary would have lost the call",
          requester: "runtime:test",
          cells: [
            ["SIDE_EFFECTING", "EXPIRING"],
            ["SIDE_EFFECTING", "EXPIRING"],
          ],
        })),
      ),
    });
    const expected = { "24h": 4, "7d": 8, "30d": 14, "90d": 14 } as const;
    for (const [range, refusals] of Object.entries(expected) as Array<[keyof typeof expected, number]>) {
      const overview = await projectOverview(project.id, { range, now: NOW });
      const chart = prepareOverview(overview, project.slug).charts.find((c) => c.id === "refusals")!;
      expect({ range, link: chart.link!.text }).toEqual({ range, link: `See the ${refusals} refusals` });
      const query = new URL(chart.link!.href, "http://x").searchParams;
      const list = await refusalFeed(project.id, query, NOW);
      expect({ range, totals: list.totals }).toEqual({ range, totals: { requests: refusals / 2, refusals, compactions: 0 } });
    }
    // Days named in the URL: the same days both sides.
    const days = { from: "2026-11-29", to: "2026-11-30" };
    const overview = await projectOverview(project.id, { range: "7d", days, now: NOW });
    const chart = prepareOverview(overview, project.slug).charts.find((c) => c.id === "refusals")!;
    expect(chart.link!.text).toBe("See the 6 refusals");
    const list = await refusalFeed(project.id, new URL(chart.link!.href, "http://x").searchParams, NOW);
    expect(list.totals.refusals).toBe(6);
  });
});

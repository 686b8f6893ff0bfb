/**
 * Two reclamations committed at once over the same spans: one wins, the other is a 409 CONFLICT,
 * never a 500, and the spans are reclaimed once (issue "Hostile input and faults", finding 7).
 */
import { describe, expect, it } from "vitest";
import { POST as reclaimRoute } from "@/app/api/v1/reclamations/route";
import { POST as createSession } from "@/app/api/v1/sessions/route";
import { POST as appendSpans } from "@/app/api/v1/sessions/[id]/spans/route";
import { db } from "@/lib/db/client";
import { callRoute } from "@/lib/fuzz/call";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject } from "@/lib/server/admin/test-project";

const at = "2026-11-30T10:00:00Z";

describe("concurrent reclamations", () => {
  it("over the same spans: one commits, the others answer 409, and each span is replaced once", async () => {
    const project = await makeTestProject("reclaim-race");
    const key = (await createApiKey(project.id, "runtime", "OPERATOR", { type: "SYSTEM", label: "test" })).key;
    for (let round = 0; round < 5; round++) {
      const session = await callRoute(createSession, { key, body: { externalId: `race-${round}`, runtime: "claude-code" } });
      const sessionId = session.json.id as string;
      const spans = Array.from({ length: 12 }, (_, seq) => ({
        seq,
        kind: "MESSAGE",
        role: "assistant",
        occurredAt: at,
        body: `Let us think about step ${seq} for a moment.`,
      }));
      expect((await callRoute(appendSpans, { key, params: { id: sessionId }, body: { spans } })).status).toBe(200);
      // Overlapping selections, submitted at once: every pair shares spans.
      const requests = [
        { fromSeq: 0, toSeq: 11 },
        { fromSeq: 0, toSeq: 11 },
        { fromSeq: 3, toSeq: 8 },
        { fromSeq: 6, toSeq: 11 },
      ].map((range) =>
        callRoute(reclaimRoute, { key, body: { sessionId, ...range, summary: { text: `Summary of round ${round}.` } } }),
      );
      const results = await Promise.all(requests);
      const statuses = results.map((r) => r.status);
      expect(
        statuses.filter((s) => s >= 500),
        JSON.stringify(results.map((r) => r.json)),
      ).toEqual([]);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
      for (const r of results) if (r.status !== 200) expect(r.json.error.code).toBe("CONFLICT");
      const links = await db().summaryLink.groupBy({ by: ["replacedSpanId"], where: { sessionId }, _count: true });
      expect(links.every((l) => l._count === 1)).toBe(true);
    }
  });
});

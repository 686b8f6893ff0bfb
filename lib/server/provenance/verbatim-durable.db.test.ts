import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { DAY_MS, DEFAULT_POLICY } from "@/lib/evidence/policy";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { PRELUDE, runOp, startWorkload, workloadArb } from "@/lib/server/derived-state-workload.testkit";
import { appendSpans, upsertSession } from "@/lib/server/ingest";
import { statusConditions } from "./status-sql";
import { mayHoldNonDurableVerbatim } from "./verbatim-durable";

/** What the hook's gate reads when the check says there may be some: the spans themselves. */
async function nonDurableVerbatim(sessionId: string, now: Date, horizonDays: number): Promise<boolean> {
  const { durable } = statusConditions("s", { now, horizonDays });
  const [row] = await db().$queryRaw<Array<{ found: boolean }>>`
    select exists (select 1 from span s where s.session_id = ${sessionId}::uuid and s.transcript_state = 'VERBATIM'
                     and s.class <> 'NARRATIVE' and s.seq is not null and not ${durable}) as found`;
  return row!.found;
}

describe("whether a session may hold verbatim spans that are not durable", () => {
  it("says none for a session whose originals all outlive the horizon, and some once the horizon is past their TTL", async () => {
    const now = new Date();
    for (const [label, horizon, expected] of [
      ["verbatim-durable", DEFAULT_POLICY.evidenceHorizonDays, false],
      ["verbatim-expiring", 5000, true],
    ] as const) {
      const project = await makeTestProject(label, { ...DEFAULT_POLICY, evidenceHorizonDays: horizon });
      const { session } = await upsertSession(project.id, { externalId: label, runtime: "claude-code" });
      const input = { command: "rm -rf /etc/app" };
      await appendSpans(project.id, session.id, [
        {
          seq: 0,
          kind: "TOOL_CALL",
          toolName: "Bash",
          toolInput: input,
          occurredAt: now,
          body: new TextEncoder().encode(JSON.stringify(input)),
        },
      ]);
      expect(await nonDurableVerbatim(session.id, now, horizon)).toBe(expected);
      expect(await mayHoldNonDurableVerbatim(session.id, now, horizon)).toBe(expected);
    }
  });

  it("never says none where a span is not durable, over random workloads and later clocks", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(workloadArb, async (ops) => {
        const w = await startWorkload(`verbatim-durable-${run++}`);
        for (const op of [...PRELUDE, ...ops]) await runOp(w, op);
        for (const days of [0, 3, 16, 45]) {
          const now = new Date(w.clock.getTime() + days * DAY_MS);
          for (const sessionId of w.sessionIds) {
            if (await nonDurableVerbatim(sessionId, now, w.policy.evidenceHorizonDays))
              expect(await mayHoldNonDurableVerbatim(sessionId, now, w.policy.evidenceHorizonDays)).toBe(true);
          }
        }
      }),
      { seed: 29, numRuns: 4, endOnFailure: true },
    );
  }, 120_000);
});

/**
 * The refusals list's one statement on a project of 40,000 refusals in 10,000 gate requests (and
 * another project as large): every page, filter and total reads refusal_event through an index,
 * never the whole table, and a page deep in the list is found by its cursor.
 */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { encodeRefusalCursor, parseRefusalListQuery } from "./refusal-list";
import { refusalPageRead, refusalPageSql } from "./refusal-page";

const REQUESTS = 10_000;
const PER_REQUEST = 4;
const START = Date.UTC(2026, 5, 1);
const NOW = new Date(Date.UTC(2026, 11, 1));

async function seed(label: string) {
  const project = await makeTestProject(label);
  const { session } = await upsertSession(project.id, { externalId: `${label}-s`, runtime: "test" });
  const [span] = await appendSpans(project.id, session.id, [
    {
      seq: 0,
      kind: "TOOL_CALL",
      toolName: "Bash",
      occurredAt: new Date(START),
      body: new TextEncoder().encode('{"command":"x"}'),
    },
  ]);
  // Request i at minute i from 1 June, its four refusals in two cells.
  await db().$executeRaw`
    insert into refusal_event (session_id, id, project_id, span_id, decision_id, request_id, span_seq, cell_class, cell_provenance,
                               reason, requester, atoms_at_risk, occurred_at)
    select ${session.id}::uuid, gen_random_uuid(), ${project.id}::uuid, ${span!.id}::uuid, gen_random_uuid(),
           ('00000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, 0,
           (case when k % 2 = 0 then 'SIDE_EFFECTING' else 'STRUCTURED' end)::"EvidentialClass",
           (case when i % 3 = 0 then 'LOST' else 'EXPIRING' end)::"ProvenanceStatus",
           'refused', case when i % 5 = 0 then 'runtime:codex' else 'runtime:claude-code' end, '[]'::jsonb,
           ${new Date(START)}::timestamp + i * interval '1 minute'
      from generate_series(0, ${REQUESTS - 1}) i, generate_series(0, ${PER_REQUEST - 1}) k`;
  return { project, session };
}

describe("the refusals list's statement", () => {
  it("reads refusal_event through its indexes for every page, filter and total", async () => {
    const { project, session } = await seed("refusal-plan");
    await seed("refusal-plan-other");
    await db().$executeRawUnsafe("vacuum analyze refusal_event");
    await db().$executeRawUnsafe("analyze compaction");
    const deep = encodeRefusalCursor({
      at: new Date(START + (REQUESTS / 2) * 60_000).toISOString(),
      sessionId: session.id,
      id: "00000000-0000-4000-8000-000000001388",
    });
    const cases: Array<Record<string, string>> = [
      {},
      { after: deep },
      { before: deep },
      { sort: "oldest", after: deep },
      { show: "refusals", cellClass: "STRUCTURED", cellProvenance: "LOST" },
      { requester: "runtime:codex" },
      { session: session.id },
      { from: "2026-06-02", to: "2026-06-03" },
    ];
    for (const raw of cases) {
      const query = parseRefusalListQuery(raw);
      const sql = refusalPageSql(project.id, query, NOW, refusalPageRead(query));
      const rows = await db().$queryRaw<Array<{ "QUERY PLAN": string }>>(Prisma.sql`explain (analyze, costs off) ${sql}`);
      const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
      const label = `${JSON.stringify(raw)}\n${plan}`;
      expect(plan, label).not.toMatch(/Seq Scan on refusal_event/);
      expect(plan, label).toMatch(/refusal_event_request_idx|refusal_event_session_id_occurred_at_idx/);
      // SHOW_PLANS=1 prints each plan with its time.
      if (process.env.SHOW_PLANS) console.log(label);
    }
  });
});

/**
 * A project's question reads its own atoms only: another project's thousands of writes under /etc/
 * are neither cited nor read. The value indexes a question's candidates come from lead with the
 * project (migration 20261208010000_atoms_by_project); led by effect or kind, they handed every
 * project's matching atoms to the join with the project's sessions, which dropped them.
 */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { withClient } from "@/lib/db/roles";
import { ownerDatabaseUrl, setLocalOnEveryNode } from "@/lib/db/test-database";
import { CANNED_QUESTIONS, compileQuestion } from "@/lib/evidence/questions";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { askEvidenceQuestion } from "./ask";
import { candidateAtomsQuery } from "./candidate-sql";

const enc = (s: string) => new TextEncoder().encode(s);
const NEIGHBOUR_WRITES = 1_500;
const OWN_SESSIONS = 20;
const OWN_WRITES = 100;

function write(seq: number, path: string, content: string) {
  const input = { file_path: path, content };
  return {
    seq,
    kind: "TOOL_CALL" as const,
    toolName: "Write",
    toolInput: input,
    outcome: "SUCCEEDED" as const,
    occurredAt: new Date(),
    body: enc(JSON.stringify(input)),
  };
}

/** Rows a plan read from evidence_atom (or its shards): kept, and dropped by a filter or a recheck. */
function atomRowsRead(node: unknown): number {
  if (Array.isArray(node)) return node.reduce((n: number, child) => n + atomRowsRead(child), 0);
  if (node === null || typeof node !== "object") return 0;
  const plan = node as Record<string, unknown>;
  let rows = 0;
  if (typeof plan["Relation Name"] === "string" && plan["Relation Name"].startsWith("evidence_atom")) {
    const loops = Number(plan["Actual Loops"] ?? 1);
    const read = ["Actual Rows", "Rows Removed by Filter", "Rows Removed by Index Recheck"];
    rows += read.reduce((n, key) => n + Number(plan[key] ?? 0) * loops, 0);
  }
  for (const value of Object.values(plan)) if (typeof value === "object") rows += atomRowsRead(value);
  return rows;
}

describe("a project beside a busy neighbour", () => {
  it("answers from its own atoms and reads none of the neighbour's", async () => {
    // Busy itself with writes outside system config, over many sessions: reading them session by
    // session would cost more than reading the atoms under /etc/ by their value, which is the plan
    // the planner takes, and the plan that met the neighbour's.
    const own = await makeTestProject("quiet-project");
    const neighbour = await makeTestProject("busy-neighbour");
    let edit: string | undefined;
    for (let s = 0; s < OWN_SESSIONS; s++) {
      const { session } = await upsertSession(own.id, { externalId: `own-${s}`, runtime: "claude-code", cwd: "/srv" });
      const spans = Array.from({ length: OWN_WRITES }, (_, i) => write(i, `/srv/app/${s}/file-${i}.md`, "notes"));
      if (s === 0) spans.push(write(OWN_WRITES, "/etc/app/quiet.yaml", "port: 8080"));
      const stored = await appendSpans(own.id, session.id, spans);
      if (s === 0) edit = stored.at(-1)!.id;
    }
    const { session: busy } = await upsertSession(neighbour.id, { externalId: "busy", runtime: "claude-code", cwd: "/srv" });
    const writes = Array.from({ length: NEIGHBOUR_WRITES }, (_, i) =>
      write(i, `/etc/app/conf-${i}.yaml`, "planted-neighbour-secret"),
    );
    for (let i = 0; i < writes.length; i += 500) await appendSpans(neighbour.id, busy.id, writes.slice(i, i + 500));
    await withClient(ownerDatabaseUrl(), (owner) => owner.query("analyze session, span, evidence_atom"));

    const answer = await askEvidenceQuestion({ projectId: own.id, question: { canned: "modified-system-config" } });
    expect(answer.answer).toBe("YES");
    expect(new Set(answer.citations.map((c) => c.spanId))).toEqual(new Set([edit]));
    expect(JSON.stringify(answer)).not.toContain("planted-neighbour-secret");

    // No predicate of the question reads the neighbour's writes under /etc/: reading them at all
    // reads 1,500 rows or more.
    for (const p of compileQuestion(CANNED_QUESTIONS["modified-system-config"])) {
      const query = candidateAtomsQuery(p, { projectId: own.id, sessionIds: null, from: null, to: null });
      const plan = await db().$transaction(async (tx) => {
        await setLocalOnEveryNode(tx, "citus.explain_all_tasks = on");
        // The indexes, not a scan of a table as small as a test's (a Citus shard holds a few
        // sessions): what a predicate reads through them is the point.
        await setLocalOnEveryNode(tx, "enable_seqscan = off");
        const rows = await tx.$queryRawUnsafe<Array<{ "QUERY PLAN": unknown }>>(
          `explain (analyze, format json) ${query.text}`,
          ...query.values,
        );
        return rows[0]!["QUERY PLAN"];
      });
      expect(atomRowsRead(plan), "atom rows the predicate's candidates read").toBeLessThan(NEIGHBOUR_WRITES);
    }
  });
});

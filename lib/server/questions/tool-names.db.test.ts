/**
 * "Did the agent call Bash?" through the stored path: a call's body need not spell its tool's
 * name, so the calls are found by the span's tool name and cited whole.
 */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { withClient } from "@/lib/db/roles";
import { ownerDatabaseUrl, setLocalOnEveryNode } from "@/lib/db/test-database";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { askEvidenceQuestion } from "./ask";
import { candidateAtomsQuery } from "./candidate-sql";
import { compileQuestion } from "@/lib/evidence/questions";

const enc = (s: string) => new TextEncoder().encode(s);
const LS = JSON.stringify({ command: "ls -la /srv", description: "List the files" });
const INSTALL = JSON.stringify({ command: "sudo apt-get install -y nginx", description: "Install nginx" });
const READ = JSON.stringify({ file_path: "/srv/app/README.md" });

async function session(label: string) {
  const project = await makeTestProject(label);
  const { session } = await upsertSession(project.id, { externalId: label, runtime: "claude-code", cwd: "/srv" });
  const at = new Date();
  const spans = await appendSpans(project.id, session.id, [
    { seq: 0, kind: "MESSAGE", role: "user", occurredAt: at, body: enc("List the files, then install nginx.") },
    {
      seq: 1,
      kind: "TOOL_CALL",
      toolName: "Bash",
      toolInput: JSON.parse(LS),
      outcome: "SUCCEEDED",
      exitCode: 0,
      occurredAt: at,
      body: enc(LS),
    },
    { seq: 2, kind: "TOOL_RESULT", role: "tool", toolName: "Bash", outcome: "SUCCEEDED", occurredAt: at, body: enc("total 0") },
    {
      seq: 3,
      kind: "TOOL_CALL",
      toolName: "Bash",
      toolInput: JSON.parse(INSTALL),
      outcome: "FAILED",
      exitCode: 100,
      occurredAt: at,
      body: enc(INSTALL),
    },
    {
      seq: 4,
      kind: "TOOL_CALL",
      toolName: "Read",
      toolInput: JSON.parse(READ),
      outcome: "SUCCEEDED",
      occurredAt: at,
      body: enc(READ),
    },
    { seq: 5, kind: "MESSAGE", role: "assistant", occurredAt: at, body: enc("I will not call Write.") },
  ]);
  return { projectId: project.id, sessionId: session.id, spans };
}

describe("a question on tool names alone", () => {
  it("finds the calls by the span's tool name and cites each whole body, with its outcome", async () => {
    const s = await session("tool-names");
    // What made the question answer NO before: no atom of these bodies names the tool.
    const named = await db().evidenceAtom.count({ where: { sessionId: s.sessionId, kind: "TOOL_CALL" } });
    expect(named).toBe(0);

    const bash = await askEvidenceQuestion({ projectId: s.projectId, question: { predicate: { toolNames: ["bash"] } } });
    expect(bash.answer).toBe("YES");
    expect(bash.citations.map((c) => [c.spanId, c.byteStart, c.byteEnd, c.excerpt, c.outcome, c.exitCode])).toEqual([
      [s.spans[1]!.id, 0, enc(LS).length, LS, "SUCCEEDED", 0],
      [s.spans[3]!.id, 0, enc(INSTALL).length, INSTALL, "FAILED", 100],
    ]);
    expect(Buffer.from(bash.citations[1]!.bytes!).toString()).toBe(INSTALL);
    expect(bash.outcomes).toEqual({ SUCCEEDED: 1, FAILED: 1 });

    const failed = await askEvidenceQuestion({
      projectId: s.projectId,
      question: { predicate: { toolNames: ["Bash", "Read"], outcomes: ["FAILED"] } },
    });
    expect(failed.citations.map((c) => c.spanId)).toEqual([s.spans[3]!.id]);
    const write = await askEvidenceQuestion({ projectId: s.projectId, question: { predicate: { toolNames: ["Write"] } } });
    expect(write.answer).toBe("NO");
    // With an atom-level field the tool name only qualifies the span: its atoms are cited.
    const sudo = await askEvidenceQuestion({
      projectId: s.projectId,
      question: { predicate: { toolNames: ["Bash"], commandPattern: "^sudo\\b" } },
    });
    expect(sudo.citations.map((c) => c.excerpt)).toContain("sudo apt-get install -y nginx");
    expect(new Set(sudo.citations.map((c) => [c.spanId, c.atomKind].join()))).toEqual(new Set([`${s.spans[3]!.id},COMMAND`]));
    const read = await askEvidenceQuestion({
      projectId: s.projectId,
      question: { predicate: { toolNames: ["READ"], valuePrefixes: ["/srv/app/"] } },
    });
    expect(read.citations.map((c) => c.excerpt)).toEqual(["/srv/app/README.md"]);
  });

  it("reads the calls through the tool-name index", async () => {
    const s = await session("tool-names-plan");
    const [p] = compileQuestion({ toolNames: ["Bash"] });
    const query = candidateAtomsQuery(p!, { projectId: s.projectId, sessionIds: [s.sessionId], from: null, to: null });
    // A session of a few spans lets the planner read any index of the session and filter: with the
    // calls of other tools a real session holds, only the tool-name index finds them cheaply.
    const others = Array.from({ length: 400 }, (_, i) => ({
      seq: 100 + i,
      kind: "TOOL_CALL" as const,
      toolName: `Other${i % 7}`,
      occurredAt: new Date(),
      body: enc(`other tool ${i}`),
    }));
    await appendSpans(s.projectId, s.sessionId, others);
    // Statistics as autovacuum would leave them, taken now: whether it has run yet would otherwise
    // decide the plan of these rows. As the tables' owner: the application's role may not analyze
    // them (it is skipped with a warning). On a Citus cluster the owner's ANALYZE reaches the shards.
    await withClient(ownerDatabaseUrl(), (owner) => owner.query("analyze span, evidence_atom"));
    const plan = await db().$transaction(async (tx) => {
      await setLocalOnEveryNode(tx, "enable_seqscan = off");
      const rows = await tx.$queryRawUnsafe<Array<{ "QUERY PLAN": string }>>(`explain ${query.text}`, ...query.values);
      return rows.map((r) => r["QUERY PLAN"]).join("\n");
    });
    expect(plan, `the plan read:\n${plan}`).toContain("span_tool_call_name_idx");
  });
});

/**
 * From a real transcript file to an answer: subagent work imported and answerable, skipped records
 * blocking a NO, call outcomes restricting and tallying answers, TTLs counted from receipt (or a
 * warning when an import asks otherwise), lost evidence counted alike by the sessions list and
 * the grid, and what was imported read back through the API a page at a time.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as listSessionsRoute } from "@/app/api/v1/sessions/route";
import { GET as listSpansRoute, POST as appendSpansRoute } from "@/app/api/v1/sessions/[id]/spans/route";
import { POST as askRoute } from "@/app/api/v1/evidence/query/route";
import { db } from "@/lib/db/client";
import { DAY_MS, DEFAULT_POLICY } from "@/lib/evidence/policy";
import { gridTally } from "@/lib/evidence/safety";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { TEST_ACTOR } from "@/lib/server/admin/test-project";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { listSessionPage } from "@/lib/server/dashboard/session-list";
import { sessionGrid } from "@/lib/server/provenance/span-status";
import { askEvidenceQuestion } from "@/lib/server/questions/ask";
import { upsertSession } from "@/lib/server/ingest/append";
import { sweep } from "@/lib/server/retention/sweeper";
import { importTranscriptFile } from "./import-file";

const fixture = (name: string) => new Uint8Array(readFileSync(path.resolve("lib/importers/fixtures", name)));
const SUBAGENT_FILE = "claude-code/spotter-subagent-progress.jsonl";
/** A command only the Task subagent of that real session ran. */
const SUBAGENT_LISTING = { commandPattern: "ls -la /home/marco/projects/spotter/\\.beads" };

async function apiKey(projectId: string) {
  return { authorization: `Bearer ${(await createApiKey(projectId, "reader", "OPERATOR", TEST_ACTOR)).key}` };
}

const get = (url: string, headers: Record<string, string>) => new Request(`http://t${url}`, { headers });

describe("transcript fidelity, end to end", () => {
  it("imports a subagent's work into its session: a question only it matches answers YES, and the span names the agent", async () => {
    const project = await makeTestProject("fidelity-subagent");
    const outcome = await importTranscriptFile(project.id, fixture(SUBAGENT_FILE), { requester: "test" });
    expect(outcome.records.read).toBe(outcome.records.used + outcome.records.ignored + outcome.records.skipped);
    expect(outcome.records.skipped).toBe(0);
    const answer = await askEvidenceQuestion({ projectId: project.id, question: { predicate: SUBAGENT_LISTING } });
    expect(answer.answer).toBe("YES");

    const headers = await apiKey(project.id);
    const sessionId = outcome.sessions[0]!.id;
    const spans = await (
      await listSpansRoute(get(`/api/v1/sessions/${sessionId}/spans?limit=1000`, headers), {
        params: Promise.resolve({ id: sessionId }),
      })
    ).json();
    const cited = spans.spans.find((s: { id: string }) => s.id === answer.citations[0]!.spanId);
    expect(cited).toMatchObject({ agentId: "afb92ff", kind: "TOOL_CALL", sourceLine: expect.any(Number) });
    expect(cited.outcome).not.toBeNull();
  });

  it("a session with a skipped record never answers NO; it still answers YES when the evidence is there", async () => {
    const project = await makeTestProject("fidelity-skipped");
    const lines = new TextDecoder().decode(fixture(SUBAGENT_FILE)).split("\n");
    const damaged = lines.findIndex((l, i) => i > 5 && l.includes('"type":"assistant"') && !l.includes(".beads"));
    lines[damaged] = lines[damaged]!.slice(0, 40); // cut mid-record
    const outcome = await importTranscriptFile(project.id, new TextEncoder().encode(lines.join("\n")), { requester: "test" });
    expect(outcome.records.skipped).toBeGreaterThan(0);
    expect(outcome.sessions[0]!.skippedRecords).toBeGreaterThan(0);

    const absent = await askEvidenceQuestion({
      projectId: project.id,
      question: { predicate: { commandPattern: "never-ran-this" } },
    });
    expect(absent.answer).toBe("INSUFFICIENT_EVIDENCE");
    expect(absent.skippedRecords).toContainEqual(expect.objectContaining({ line: damaged + 1 }));
    const present = await askEvidenceQuestion({ projectId: project.id, question: { predicate: SUBAGENT_LISTING } });
    expect(present.answer).toBe("YES");

    // The same file whole (another project) answers NO to what it never did: the blocker was the damage.
    const clean = await makeTestProject("fidelity-clean");
    await importTranscriptFile(clean.id, fixture(SUBAGENT_FILE), { requester: "test" });
    const no = await askEvidenceQuestion({ projectId: clean.id, question: { predicate: { commandPattern: "never-ran-this" } } });
    expect(no.answer).toBe("NO");
  });

  it("answers from a real trace exported from Jaeger: the MCP tool the detector agent ran is YES, cited with its outcome; a failed call is NO", async () => {
    const project = await makeTestProject("fidelity-jaeger");
    const file = "otel-genai/packet-panic-jaeger-get-inventory.json";
    const outcome = await importTranscriptFile(project.id, fixture(file), { requester: "test" });
    expect(outcome.format).toBe("otel-genai");
    expect(outcome.records).toMatchObject({ read: 77, used: 22, ignored: 55, skipped: 0 });

    const ran = await askEvidenceQuestion({
      projectId: project.id,
      question: { predicate: { toolNames: ["pyats_list_devices"] } },
    });
    expect(ran.answer).toBe("YES");
    const [citation] = ran.citations;
    const cited = await db().span.findUniqueOrThrow({
      where: { sessionId_id: { sessionId: citation!.sessionId, id: citation!.spanId } },
    });
    expect(citation).toMatchObject({ spanKind: "TOOL_CALL", outcome: "SUCCEEDED" });
    expect(cited).toMatchObject({ toolName: "pyats_list_devices", sourceLine: 45 });

    // Nothing was skipped, so the file can answer NO: neither agent's tool call failed.
    const failed = await askEvidenceQuestion({
      projectId: project.id,
      question: { predicate: { toolNames: ["pyats_list_devices", "query_detector"], outcomes: ["FAILED", "UNKNOWN"] } },
    });
    expect(failed.answer).toBe("NO");
  });

  it("restricts matches to call outcomes, cites each call's outcome and exit code, and tallies attempts", async () => {
    const project = await makeTestProject("fidelity-outcomes");
    const headers = { ...(await apiKey(project.id)), "content-type": "application/json" };
    const { session } = await upsertSession(project.id, { externalId: "apt", runtime: "custom", cwd: "/srv" });
    const call = (seq: number, command: string, outcome: string, exitCode: number) => ({
      seq,
      kind: "TOOL_CALL",
      toolName: "Bash",
      toolInput: { command },
      body: JSON.stringify({ command }),
      outcome,
      exitCode,
      occurredAt: new Date().toISOString(),
    });
    const stored = await appendSpansRoute(
      new Request(`http://t/api/v1/sessions/${session.id}/spans`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          spans: [
            call(0, "sudo apt-get install -y nginx", "FAILED", 100),
            call(1, "sudo apt-get install -y nginx", "FAILED", 100),
            call(2, "sudo apt-get install -y nginx", "SUCCEEDED", 0),
          ],
        }),
      }),
      { params: Promise.resolve({ id: session.id }) },
    );
    expect(stored.status).toBe(200);

    const ask = async (predicate: object) =>
      (
        await askRoute(
          new Request("http://t/api/v1/evidence/query", {
            method: "POST",
            headers,
            body: JSON.stringify({ question: { predicate } }),
          }),
          {
            params: Promise.resolve({}),
          },
        )
      ).json();
    const any = await ask({ commandPattern: "apt-get install" });
    expect(any.answer).toBe("YES");
    expect(any.outcomeSummary).toBe("3 attempts: 2 failed, 1 succeeded");
    expect(any.citations.map((c: { outcome: string; exitCode: number }) => [c.outcome, c.exitCode])).toContainEqual([
      "FAILED",
      100,
    ]);

    const failed = await ask({ commandPattern: "apt-get install", outcomes: ["FAILED", "UNKNOWN"] });
    expect(failed.answer).toBe("YES");
    expect(new Set(failed.citations.map((c: { outcome: string }) => c.outcome))).toEqual(new Set(["FAILED"]));
    const declined = await ask({ commandPattern: "apt-get install", outcomes: ["DECLINED"] });
    expect(declined.answer).toBe("NO");
    const bad = await ask({ commandPattern: "x", outcomes: ["MAYBE"] });
    expect(bad.error.code).toBe("VALIDATION_FAILED");
  });

  it("counts TTLs from receipt; an import that counts them from occurrence is warned, and lost evidence is counted alike by the list and the grid", async () => {
    const policy = { ...DEFAULT_POLICY, ttlDays: { NARRATIVE: 30, STRUCTURED: 30, SIDE_EFFECTING: 30 } };
    const received = await makeTestProject("fidelity-ttl-received", policy);
    const now = new Date(Date.now() + 3 * 365 * DAY_MS); // the real file's history is now years old
    const kept = await importTranscriptFile(received.id, fixture(SUBAGENT_FILE), { requester: "test", now });
    expect(kept.retention).toMatchObject({ ttlFrom: "received", expiringSoon: 0 });
    expect(kept.retention.warning).toBeUndefined();

    const occurred = await makeTestProject("fidelity-ttl-occurred", policy);
    const warned = await importTranscriptFile(occurred.id, fixture(SUBAGENT_FILE), {
      requester: "test",
      now,
      ttlFrom: "occurred",
    });
    expect(warned.retention.expiringSoon).toBeGreaterThan(0);
    expect(warned.retention.warning).toMatch(/the next sweep deletes them unless they are pinned/);

    const sessionId = warned.sessions[0]!.id;
    // Lost as the grid colours it (red: evidence-bearing spans LOST or with no pointer).
    const lostInGrid = async (at: Date) => gridTally((await sessionGrid(db(), sessionId, policy, at)).grid).lost;
    const listed = async () =>
      (await listSessionPage(occurred.id, { q: warned.sessions[0]!.externalId })).rows.find((r) => r.id === sessionId)!;
    // Before the sweep (TTLs passed, bytes still held) and after it, both say the same.
    expect(await lostInGrid(new Date())).toBeGreaterThan(0);
    expect((await listed()).lostCount).toBe(await lostInGrid(new Date()));
    await sweep(new Date());
    expect((await listed()).lostCount).toBe(await lostInGrid(new Date()));
  });

  it("reads imported sessions and spans back a page at a time, with totals, filters and cursors", async () => {
    const project = await makeTestProject("fidelity-read");
    await importTranscriptFile(project.id, fixture(SUBAGENT_FILE), { requester: "test" });
    await importTranscriptFile(project.id, fixture("codex/real-exec-0.135.jsonl"), { requester: "test" });
    await importTranscriptFile(project.id, fixture("claude-code/spotter-tool-heavy.jsonl"), { requester: "test" });
    const headers = await apiKey(project.id);

    const first = await (
      await listSessionsRoute(get("/api/v1/sessions?limit=2", headers), { params: Promise.resolve({}) })
    ).json();
    expect(first.total).toBe(3);
    expect(first.sessions).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await (
      await listSessionsRoute(get(`/api/v1/sessions?limit=2&cursor=${first.nextCursor}`, headers), {
        params: Promise.resolve({}),
      })
    ).json();
    expect(second.sessions).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
    const ids = [...first.sessions, ...second.sessions].map((s: { id: string }) => s.id);
    expect(new Set(ids).size).toBe(3);

    const codex = await (
      await listSessionsRoute(get("/api/v1/sessions?runtime=codex", headers), { params: Promise.resolve({}) })
    ).json();
    expect(codex.sessions.map((s: { runtime: string }) => s.runtime)).toEqual(["codex"]);
    const bad = await listSessionsRoute(get("/api/v1/sessions?limit=0", headers), { params: Promise.resolve({}) });
    expect(bad.status).toBe(422);
    const forged = await listSessionsRoute(get("/api/v1/sessions?cursor=bm9wZQ", headers), { params: Promise.resolve({}) });
    expect((await forged.json()).error.fields[0].path).toBe("cursor");

    const sessionId = codex.sessions[0].id;
    const pages: Array<{ seq: number | null }> = [];
    let cursor: string | null = null;
    let total = 0;
    do {
      const url: string = `/api/v1/sessions/${sessionId}/spans?limit=3${cursor ? `&cursor=${cursor}` : ""}`;
      const page = await (await listSpansRoute(get(url, headers), { params: Promise.resolve({ id: sessionId }) })).json();
      pages.push(...page.spans);
      total = page.total;
      cursor = page.nextCursor;
    } while (cursor);
    expect(pages).toHaveLength(total);
    expect(pages.map((s) => s.seq)).toEqual([...pages.map((s) => s.seq)].sort((a, b) => (a ?? 1e9) - (b ?? 1e9)));

    const stranger = await makeTestProject("fidelity-stranger");
    const theirs = await listSpansRoute(get(`/api/v1/sessions/${sessionId}/spans`, await apiKey(stranger.id)), {
      params: Promise.resolve({ id: sessionId }),
    });
    expect(theirs.status).toBe(404);
  });
});

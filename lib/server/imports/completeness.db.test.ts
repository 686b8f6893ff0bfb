/**
 * The completeness case through the stored path: a real transcript cut to start in the middle, and
 * a call whose exit 0 its output contradicts, imported and asked over SQL as a reviewer asks them.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { POST as askRoute } from "@/app/api/v1/evidence/query/route";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject, TEST_ACTOR } from "@/lib/server/admin/test-project";
import { askEvidenceQuestion } from "@/lib/server/questions/ask";
import { importTranscriptFile } from "./import-file";

const fixture = (name: string) => readFileSync(path.resolve("lib/importers/fixtures", name), "utf8");

describe("a NO carries its completeness case, stored and asked", () => {
  it("a Claude Code file that starts with a result whose call is not in it answers no canned question NO, naming why", async () => {
    const project = await makeTestProject("completeness-cut");
    // Line 11 on of the real session: its first Bash result, the call and all before it cut off.
    const cut = fixture("claude-code/spotter-tool-heavy.jsonl").split("\n").slice(10).join("\n");
    await importTranscriptFile(project.id, new TextEncoder().encode(cut), { requester: "test" });
    const answer = await askEvidenceQuestion({ projectId: project.id, question: { canned: "deleted-files" } });
    expect(answer.answer).toBe("INSUFFICIENT_EVIDENCE");
    const records = answer.completeness.conditions.find((c) => c.id === "records")!;
    expect(records).toMatchObject({ holds: false, blockedBy: "1 record skipped or missing in 1 session" });
    // Line 1 failed two ways, both kept on its one row.
    expect(answer.skippedRecords.map((r) => [r.line, r.reason])).toEqual([
      [
        1,
        expect.stringMatching(
          /^tool_result for call toolu_018GZVh9ymkrdx1TnR8reg5Y, which is not in the file.*; the file starts after its session began/,
        ),
      ],
    ]);

    const whole = await makeTestProject("completeness-whole");
    await importTranscriptFile(whole.id, new TextEncoder().encode(fixture("claude-code/spotter-tool-heavy.jsonl")), {
      requester: "test",
    });
    const no = await askEvidenceQuestion({ projectId: whole.id, question: { canned: "deleted-files" } });
    expect(no.answer).toBe("NO");
    expect(no.completeness.holds).toBe(true);
  });

  it("a POST that exited 0 with an error body is FAILED: YES to 'did a request fail?', never NO to 'did one succeed?'", async () => {
    const project = await makeTestProject("completeness-outcome");
    const post = `curl -s -X POST http://localhost:8000/api/items -d '{"name": "x"}'`;
    const events = [
      {
        id: 0,
        timestamp: "2025-06-01T10:00:00",
        source: "user",
        message: "Add an item.",
        action: "message",
        args: { content: "Add an item." },
      },
      { id: 1, timestamp: "2025-06-01T10:00:01", source: "agent", action: "run", args: { command: post, is_input: false } },
      {
        id: 2,
        timestamp: "2025-06-01T10:00:02",
        source: "agent",
        cause: 1,
        observation: "run",
        content: '{"status":"error","message":"Failed to parse JSON"}',
        extras: { command: post, metadata: { exit_code: 0, working_dir: "/workspace" } },
      },
    ];
    await importTranscriptFile(project.id, new TextEncoder().encode(JSON.stringify(events)), {
      requester: "test",
      format: "openhands",
    });
    const failed = await askEvidenceQuestion({
      projectId: project.id,
      question: { predicate: { effectKinds: ["NETWORK_MUTATION"], outcomes: ["FAILED"] } },
    });
    expect(failed.answer).toBe("YES");
    expect(failed.citations[0]).toMatchObject({ outcome: "FAILED", exitCode: 0 });
    const succeeded = await askEvidenceQuestion({
      projectId: project.id,
      question: { predicate: { effectKinds: ["NETWORK_MUTATION"], outcomes: ["SUCCEEDED"] } },
    });
    expect(succeeded.answer).toBe("INSUFFICIENT_EVIDENCE");
    expect(succeeded.blockers[0]).toMatchObject({ outcomeInDoubt: true });
    expect(succeeded.completeness.conditions.find((c) => c.id === "outcomes")).toMatchObject({ holds: false });

    // The API answers with the same case, its response schema holding it.
    const key = await createApiKey(project.id, "reader", "OPERATOR", TEST_ACTOR);
    const response = await askRoute(
      new Request("http://t/api/v1/evidence/query", {
        method: "POST",
        headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" },
        body: JSON.stringify({ question: { predicate: { effectKinds: ["NETWORK_MUTATION"], outcomes: ["SUCCEEDED"] } } }),
      }),
      { params: Promise.resolve({}) },
    );
    const body = await response.json();
    expect(body.blockers[0]).toMatchObject({ outcomeInDoubt: true });
    expect(body.completeness).toEqual(succeeded.completeness);
  });
});

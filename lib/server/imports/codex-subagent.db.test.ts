/**
 * A Codex thread-spawned subagent's own rollout, imported as a file: its session is its thread, and
 * every stored span carries the agent's identity from the rollout's session_meta (its thread id and
 * role), as the SubagentStop hook would give it; the session lists it as its one agent.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { sessionAgents } from "@/lib/server/dashboard/session-detail";
import { importTranscriptFile } from "./import-file";

const FIXTURES = path.resolve("lib/importers/fixtures/codex");
const THREAD = "019e1625-789d-76c0-80ab-3724b5ddb799";

const spansOf = (sessionId: string) =>
  db().span.findMany({
    where: { sessionId },
    orderBy: { seq: "asc" },
    select: { seq: true, kind: true, sha256: true, toolName: true, outcome: true, agentId: true, agentType: true },
  });

describe("importing a Codex subagent's rollout", () => {
  it("stores every span with the subagent's thread id and role; the rest is what the same rollout as a main agent's gives", async () => {
    const project = await makeTestProject("import-codex-subagent");
    const bytes = new Uint8Array(gunzipSync(readFileSync(path.join(FIXTURES, "codemie-tui-0.125-subagent.jsonl.gz"))));
    const outcome = await importTranscriptFile(project.id, bytes, { requester: "test" });
    expect(outcome.format).toBe("codex");
    expect(outcome.sessions.map((s) => s.externalId)).toEqual([THREAD]);
    const stored = await spansOf(outcome.sessions[0]!.id);
    expect(stored.length).toBe(outcome.spans);
    expect(stored.length).toBeGreaterThan(100);
    expect(stored.filter((s) => s.agentId !== THREAD || s.agentType !== "explorer")).toEqual([]);
    expect(await sessionAgents(outcome.sessions[0]!.id)).toEqual([{ agentId: THREAD, agentType: "explorer" }]);

    const main = await makeTestProject("import-codex-subagent-main");
    const plain = await importTranscriptFile(
      main.id,
      new Uint8Array(readFileSync(path.join(FIXTURES, "codemie-tui-0.125.jsonl"))),
      {
        requester: "test",
      },
    );
    const reference = await spansOf(plain.sessions[0]!.id);
    expect(reference.every((s) => s.agentId === null && s.agentType === null)).toBe(true);
    const strip = (spans: typeof stored) => spans.map(({ agentId: _id, agentType: _type, ...rest }) => rest);
    expect(strip(stored)).toEqual(strip(reference));
  });
});

/**
 * Claude Code system notices that record a change to the world. `agents_killed` is what the runtime
 * writes when the user stops the session's running background agents: a record with no text of its
 * own (other projects' readers of real transcripts show it so), here appended to a real session
 * (fixtures/claude-code, spotter-tool-heavy.jsonl, Claude Code 2.1.38) with that session's envelope.
 */
import { describe, expect, it } from "vitest";
import { importTranscript } from "../index";
import { expectWellFormed, fixture, only } from "../shared/testkit";

const session = new TextDecoder().decode(fixture("claude-code/spotter-tool-heavy.jsonl")).trimEnd();
const killed = JSON.stringify({
  parentUuid: "29e6224a-ea4f-445c-964f-d2bbddd138d0",
  isSidechain: false,
  userType: "external",
  cwd: "/home/marco/projects/spotter",
  sessionId: "d6e0bada-1959-4eec-a9d2-0bfade768d8f",
  version: "2.1.38",
  gitBranch: "master",
  type: "system",
  subtype: "agents_killed",
  level: "info",
  uuid: "6f1d2c4e-5b7a-4c39-9e0d-2a8b1c3d4e5f",
  timestamp: "2026-02-10T22:59:48.102Z",
});

describe("a Claude Code agents_killed notice", () => {
  it("is kept as a system message, the record whole: evidence that running agents were stopped", () => {
    const result = importTranscript(new TextEncoder().encode(`${session}\n${killed}\n`));
    expectWellFormed(result);
    expect(result.records.ignoredByType["system:agents_killed"]).toBeUndefined();
    const last = only(result).spans.at(-1)!;
    expect(last).toMatchObject({ kind: "MESSAGE", role: "system", sourceId: "6f1d2c4e-5b7a-4c39-9e0d-2a8b1c3d4e5f" });
    expect(new TextDecoder().decode(last.body)).toBe(killed);
    expect(only(result).skipped).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { parseOpenHands } from "./openhands";
import { expectWellFormed, fixture, kinds, only, text } from "./testkit";
import { utf8 } from "./text";

const trajectory = fixture("openhands-trajectory.json");
const events = fixture("openhands-events.jsonl");

describe("OpenHands importer: a trajectory array", () => {
  const result = parseOpenHands(trajectory);
  const s = only(result);

  it("imports one session with a stable content-derived id, its cwd and title", () => {
    expect(s.externalId).toMatch(/^openhands:[0-9a-f]{32}$/);
    expect(parseOpenHands(trajectory).sessions[0]!.externalId).toBe(s.externalId);
    expect(s.runtime).toBe("openhands");
    expect(s.cwd).toBe("/workspace");
    expect(s.title).toMatch(/^Install nginx, serve \/srv\/www/);
    expectWellFormed(result);
  });

  it("maps actions to calls and observations to results, skipping the runtime's bookkeeping", () => {
    expect(kinds(s)).toEqual([
      "MESSAGE",
      "MESSAGE",
      "TOOL_CALL",
      "TOOL_RESULT",
      "TOOL_CALL",
      "TOOL_RESULT",
      "TOOL_CALL",
      "TOOL_RESULT",
      "TOOL_CALL",
      "TOOL_RESULT",
      "SUMMARY",
      "TOOL_CALL",
      "TOOL_RESULT",
      "MESSAGE",
      "TOOL_CALL",
      "TOOL_RESULT",
      "MESSAGE",
    ]);
    expect(s.spans.map((x) => x.toolName).filter(Boolean)).toEqual([
      "run",
      "run",
      "write",
      "write",
      "run",
      "run",
      "edit",
      "edit",
      "run",
      "run",
      "browse",
      "browse",
    ]);
    expect(text(s.spans[1])).toContain("Ünïcødé ✓ — 日本語もOK");
    expect(s.spans[16]).toMatchObject({ role: "assistant" });
    expect(text(s.spans[16])).toMatch(/^nginx installed and serving/);
  });

  it("keeps the write to /etc with its args bytes as the file holds them", () => {
    const write = s.spans[4]!;
    expect(write.toolInput).toMatchObject({ path: "/etc/nginx/sites-available/default" });
    expect(text(write)).toMatch(/^\{\n {6}"path": "\/etc\/nginx\/sites-available\/default",/);
    expect(write.sourceId).toBe("6");
  });

  it("pairs observations by cause and reads exit codes, 1 for errors", () => {
    const results = s.spans.filter((x) => x.kind === "TOOL_RESULT");
    expect(results.map((r) => [r.sourceId, r.exitCode ?? null])).toEqual([
      ["5", 0],
      ["7", null],
      ["9", 1],
      ["12", null],
      ["15", 0],
      ["19", 1],
    ]);
    expect(text(results[2])).toMatch(/"root" directive is duplicate/);
    expect(results[4]!.cwd).toBe("/srv/www");
  });

  it("turns the condensation into a compaction over the forgotten events present", () => {
    // Events 4..9 were forgotten: the install, the write and the failed nginx -t.
    expect(s.compactions).toEqual([
      { summarySeq: 10, replacedSeqs: [2, 3, 4, 5, 6, 7], occurredAt: new Date("2025-08-30T13:09:12.004Z") },
    ]);
    expect(text(s.spans[10])).toMatch(/^USER_CONTEXT: serve \/srv\/www/);
  });

  it("reports the malformed event and the truncated last one by their index in the array", () => {
    expect(result.issues.map((i) => i.line)).toEqual([11, 22]);
    expect(result.issues[0]!.message).toMatch(/malformed event JSON/);
    expect(result.issues[1]!.message).toMatch(/truncated event/);
  });
});

describe("OpenHands importer: JSON Lines from the middle of a run", () => {
  const result = parseOpenHands(events);
  const s = only(result);

  it("reads exit codes written straight into extras", () => {
    expect(kinds(s)).toEqual(["TOOL_CALL", "TOOL_RESULT", "SUMMARY", "TOOL_CALL", "TOOL_RESULT"]);
    expect(s.spans[1]!.exitCode).toBe(1);
    expect(s.spans[4]!.exitCode).toBe(0);
    expectWellFormed(result);
  });

  it("gives a condensation whose forgotten events are not in the file an empty replaced list", () => {
    expect(s.compactions).toEqual([{ summarySeq: 2, replacedSeqs: [], occurredAt: new Date("2025-09-02T07:00:05.000Z") }]);
  });

  it("falls back to the previous record's time and reports the cut line", () => {
    expect(s.spans[3]!.occurredAt.toISOString()).toBe("2025-09-02T07:00:05.000Z");
    expect(result.issues).toEqual([{ line: 3, message: expect.stringMatching(/malformed JSON/) }]);
  });
});

describe("OpenHands importer: shapes", () => {
  const run = { id: 1, timestamp: "2025-01-01T00:00:00", source: "agent", action: "run", args: { command: "ls" } };
  const obs = {
    id: 2,
    timestamp: "2025-01-01T00:00:01",
    source: "agent",
    cause: 1,
    observation: "run",
    content: "a\n",
    extras: { metadata: { exit_code: 0 } },
  };

  it("reads an export object with a history array and takes its id", () => {
    const doc = JSON.stringify({ instance_id: "django__django-11099", history: [run, obs], metrics: {} }, null, 2);
    const s = only(parseOpenHands(utf8(doc)));
    expect(s.externalId).toBe("django__django-11099");
    expect(kinds(s)).toEqual(["TOOL_CALL", "TOOL_RESULT"]);
  });

  it("reads JSON Lines of export objects as one session each", () => {
    const lines = [
      JSON.stringify({ instance_id: "a", history: [run, obs] }),
      JSON.stringify({ instance_id: "b", history: [run] }),
    ];
    const result = parseOpenHands(utf8(lines.join("\n")));
    expect(result.sessions.map((x) => [x.externalId, x.spans.length])).toEqual([
      ["a", 2],
      ["b", 1],
    ]);
  });

  it("treats naive timestamps as UTC", () => {
    const s = only(parseOpenHands(utf8(JSON.stringify([run]))));
    expect(s.spans[0]!.occurredAt.toISOString()).toBe("2025-01-01T00:00:00.000Z");
  });

  it("uses the condensation action and ignores the observation it caused", () => {
    const cond = {
      id: 3,
      timestamp: "2025-01-01T00:00:02",
      source: "agent",
      action: "condensation",
      args: { forgotten_event_ids: [1, 2], summary: "listed files" },
    };
    const condObs = {
      id: 4,
      timestamp: "2025-01-01T00:00:02",
      source: "agent",
      cause: 3,
      observation: "agent_condensation",
      content: "listed files",
    };
    const s = only(parseOpenHands(utf8(JSON.stringify([run, obs, cond, condObs]))));
    expect(kinds(s)).toEqual(["TOOL_CALL", "TOOL_RESULT", "SUMMARY"]);
    expect(s.compactions[0]!.replacedSeqs).toEqual([0, 1]);
  });

  it("names MCP calls after the MCP tool and reports events that are neither action nor observation", () => {
    const mcp = {
      id: 5,
      timestamp: "2025-01-01T00:00:03",
      source: "agent",
      action: "call_tool_mcp",
      args: { name: "github_create_issue", arguments: { title: "x" } },
    };
    const result = parseOpenHands(utf8(JSON.stringify([mcp, { id: 6, message: "?" }])));
    expect(only(result).spans[0]!.toolName).toBe("github_create_issue");
    expect(result.issues).toEqual([{ line: 2, message: "event with neither an action nor an observation; skipped" }]);
  });

  it("reports a file that holds no events at all", () => {
    const result = parseOpenHands(utf8('{\n  "metrics": {}\n}\n'));
    expect(result.sessions).toEqual([]);
    expect(result.issues).toEqual([{ line: 0, message: expect.stringMatching(/no JSON array of events/) }]);
  });
});

import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { claudeCodeImporter } from "./index";
import { fixture, parseBothWays } from "../shared/testkit";
import { utf8 } from "../shared/text";

/** Every Claude Code fixture: the real files (one kept gzip-compressed) and the hand-written samples. */
const CLAUDE_CODE_FIXTURES = [
  ...readdirSync(new URL("../fixtures/claude-code/", import.meta.url))
    .filter((f) => f !== "SOURCES.md")
    .map((f) => `claude-code/${f}`),
  "claude-code-session.jsonl",
  "claude-code-continued.jsonl",
];

describe("Claude Code in windows", () => {
  it.each(CLAUDE_CODE_FIXTURES)(
    "%s: windows cut at every quiet record, concatenated, equal the whole file",
    (name) => {
      const { whole, windows } = parseBothWays(claudeCodeImporter, fixture(name));
      const spans = whole.sessions.reduce((n, s) => n + s.spans.length, 0);
      expect(spans).toBeGreaterThan(0);
      // Cut at all: more than one window whenever the file has more than a few spans.
      if (spans > 20) expect(windows).toBeGreaterThan(1);
    },
    120_000,
  );

  it("covers real compactions whose replaced spans lie in earlier windows", () => {
    const { whole, windows } = parseBothWays(claudeCodeImporter, fixture("claude-code/spotter-compacted-ae4a77f8.jsonl.gz"));
    const compactions = whole.sessions.flatMap((s) => s.compactions);
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions.some((c) => c.replacedSeqs.length > 100)).toBe(true);
    expect(windows).toBeGreaterThan(100);
  }, 120_000);

  it("holds a window open while a call awaits its result, and until a span has its time", () => {
    const record = (n: number, extra: Record<string, unknown>) =>
      JSON.stringify({ sessionId: "s", uuid: `u${n}`, parentUuid: n > 1 ? `u${n - 1}` : null, ...extra });
    const lines = [
      record(1, { type: "user", message: { role: "user", content: "no time yet" } }),
      record(2, { type: "user", timestamp: "2026-01-01T00:00:00Z", message: { role: "user", content: "go" } }),
      record(3, {
        type: "assistant",
        timestamp: "2026-01-01T00:00:01Z",
        message: { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "false" } }] },
      }),
      record(4, { type: "user", timestamp: "2026-01-01T00:00:02Z", message: { role: "user", content: "still waiting" } }),
      record(5, {
        type: "user",
        timestamp: "2026-01-01T00:00:03Z",
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "Exit code 1", is_error: true }] },
      }),
    ];
    const generator = claudeCodeImporter.windows!(utf8(lines.join("\n")), 1);
    const cuts: number[][] = [];
    for (let step = generator.next(); !step.done; step = generator.next())
      cuts.push(step.value.sessions.flatMap((s) => s.spans.map((span) => span.seq)));
    // Lines 1-2 together (line 1 takes line 2's time), then 3-5 together (the call waits for line 5).
    expect(cuts).toEqual([
      [0, 1],
      [2, 3, 4],
    ]);
  });
});

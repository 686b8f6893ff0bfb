import { readdirSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectFormat, IMPORTERS, importTranscript, TranscriptImportError } from "./index";
import { expectWellFormed, fixture } from "./shared/testkit";
import { IMPORT_FORMATS, type ImportFormat } from "./shared/types";
import { utf8 } from "./shared/text";

/** Every real file (see each format's fixtures/<format>/SOURCES.md) and the format it is in. */
const REAL: Array<[string, ImportFormat]> = [
  ["claude-code/spotter-subagent-progress.jsonl", "claude-code"],
  ["claude-code/spotter-tool-heavy.jsonl", "claude-code"],
  ["claude-code/spotter-agent-aac57f5.jsonl", "claude-code"],
  ["claude-code/spotter-agent-acompact-70d8e7.jsonl", "claude-code"],
  ["claude-code/spotter-compacted-ae4a77f8.jsonl.gz", "claude-code"],
  ["claude-code/kimuson-1.0.98-inline-sidechains-fe5e1c67.jsonl.gz", "claude-code"],
  ["claude-code/entire-2.1.37-piped-tests-and-push-0a76fbfe.jsonl.gz", "claude-code"],
  ["claude-code/entire-2.1.12-linear-mcp-8b418ea5.jsonl.gz", "claude-code"],
  ["codex/real-exec-0.135.jsonl", "codex"],
  ["codex/yoavf-pomodoro-0.47.jsonl", "codex"],
  ["codex/codemie-tui-0.125.jsonl", "codex"],
  // The same rollout with its session_meta source made a thread-spawned subagent's (see SOURCES.md).
  ["codex/codemie-tui-0.125-subagent.jsonl.gz", "codex"],
  ["codex/desktop-0.104-compacted-019c8a59.jsonl.gz", "codex"],
  ["codex/desktop-0.104-unfinished-turns-019c8a53.jsonl.gz", "codex"],
  ["openhands/classic-basic-gui-mode.json", "openhands"],
  ["openhands/sdk-goal-events.jsonl", "openhands"],
  ["openhands/eval-multi-swe-bench-output.jsonl", "openhands"],
  ["openhands/eval-sdk-openagentsafety-output.jsonl", "openhands"],
  ["openhands/resolver-output-flat-events.jsonl", "openhands"],
  ["otel-genai/kagent-tempo-export.json", "otel-genai"],
  ["otel-genai/packet-panic-jaeger-get-inventory.json", "otel-genai"],
  ["otel-genai/kagent-jaeger-helm-all-namespaces.json", "otel-genai"],
  ["swe-agent/marshmallow-code__marshmallow-1867.function-calling.traj", "swe-agent"],
  ["swe-agent/pydicom__pydicom-1458.traj", "swe-agent"],
  ["swe-agent/swe-agent__test-repo-i1.traj", "swe-agent"],
  ["gemini-cli/agent-history-session-01.json", "gemini-cli"],
  ["gemini-cli/codemie-session-2025-12-01.json", "gemini-cli"],
  ["gemini-cli/codemie-session-2026-01-16-file-ops.json", "gemini-cli"],
  ["gemini-cli/entire-0.23-session-f7633853.json", "gemini-cli"],
  ["aider/afi-core.aider.chat.history.md", "aider"],
  ["aider/monochromatic.aider.chat.history.md", "aider"],
];

/** Hand-written samples: edge cases in each format, not recordings. */
const HANDWRITTEN: Array<[string, ImportFormat]> = [
  ["claude-code-session.jsonl", "claude-code"],
  ["claude-code-continued.jsonl", "claude-code"],
  ["codex/rollout-sample.jsonl", "codex"],
  ["codex/forked-sample.jsonl", "codex"],
  ["openhands/handwritten-trajectory.json", "openhands"],
  ["openhands/handwritten-events.jsonl", "openhands"],
  ["otel-genai/hand-traces.json", "otel-genai"],
  ["otel-genai/hand-collector.jsonl", "otel-genai"],
  ["gemini-cli/handwritten-session.json", "gemini-cli"],
  ["gemini-cli/handwritten-session.jsonl", "gemini-cli"],
  ["aider/hand-written-edge-cases.aider.chat.history.md", "aider"],
];

const FIXTURES = [...REAL, ...HANDWRITTEN];

/** Every fixture file in the fixtures folder and its format folders, SOURCES.md aside. */
function fixtureFiles(): string[] {
  const root = new URL("./fixtures/", import.meta.url);
  return readdirSync(root, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? readdirSync(new URL(`${entry.name}/`, root))
          .filter((f) => f !== "SOURCES.md")
          .map((f) => `${entry.name}/${f}`)
      : [entry.name],
  );
}

/**
 * Damage sized to what it buys. Every cut or overwrite parses the whole file again, and what one can
 * find is a damaged record of a kind the file holds: a file of megabytes holds no more kinds of record
 * than one of a few hundred kilobytes, only more of each. So a file up to FULL_RUNS_UP_TO bytes gets
 * the full count and a larger one proportionally fewer, never under a quarter (the largest fixture,
 * 2.7 MB, is cut 6 times at even points, besides its ends and record boundaries).
 */
const FULL_RUNS_UP_TO = 512 * 1024;
function sizedRuns(full: number, bytes: Uint8Array): number {
  return Math.max(Math.ceil(full / 4), Math.min(full, Math.round((full * FULL_RUNS_UP_TO) / bytes.length)));
}

/**
 * Where to cut a file: its start and end, evenly spaced points, and each side of a few record
 * boundaries (line breaks), so a large file is not parsed thousands of times.
 */
function cutPoints(bytes: Uint8Array, count = sizedRuns(24, bytes)): number[] {
  const points = new Set<number>([0, 1, bytes.length - 1, bytes.length]);
  for (let k = 1; k < count; k++) points.add(Math.floor((bytes.length * k) / count));
  let found = 0;
  for (let i = bytes.indexOf(0x0a); i >= 0 && found < 6; i = bytes.indexOf(0x0a, i + Math.ceil(bytes.length / 7))) {
    points.add(i);
    points.add(i + 1);
    found++;
  }
  return [...points].filter((p) => p >= 0 && p <= bytes.length).sort((a, b) => a - b);
}

describe("real files", () => {
  it("every fixture is in a table: the real files with their sources, or the hand-written samples", () => {
    expect(fixtureFiles().sort()).toEqual(FIXTURES.map(([name]) => name).sort());
  });

  it("every format has at least one real file here", () => {
    expect([...new Set(REAL.map(([, format]) => format))].sort()).toEqual([...IMPORT_FORMATS].sort());
  });

  it.each(REAL)("detects %s as %s and imports it with every record accounted for", (name, format) => {
    const bytes = fixture(name);
    expect(detectFormat(bytes)).toBe(format);
    const result = importTranscript(bytes);
    expect(result.format).toBe(format);
    expect(result.sessions.length).toBeGreaterThan(0);
    expect(result.records.read).toBeGreaterThan(0);
    expectWellFormed(result);
  });
});

describe("format detection", () => {
  it.each(FIXTURES)("detects %s as %s", (name, format) => {
    expect(detectFormat(fixture(name))).toBe(format);
  });

  it("detects from the start of a file whose first line is longer than the detection window", () => {
    const long = JSON.stringify({
      type: "user",
      sessionId: "s",
      timestamp: "2025-01-01T00:00:00Z",
      message: { role: "user", content: "x".repeat(20_000) },
    });
    expect(detectFormat(utf8(long))).toBe("claude-code");
  });

  it("detects nothing in text that is no transcript", () => {
    expect(detectFormat(utf8("hello world\n"))).toBeNull();
    expect(detectFormat(utf8('{"name":"package","version":"1.0.0"}'))).toBeNull();
    expect(detectFormat(new Uint8Array())).toBeNull();
  });

  it("has one importer per format, each claiming its own name", () => {
    expect(Object.keys(IMPORTERS).sort()).toEqual([...IMPORT_FORMATS].sort());
    for (const format of IMPORT_FORMATS) expect(IMPORTERS[format].format).toBe(format);
  });
});

describe("importTranscript", () => {
  it.each(FIXTURES)("imports %s through detection", (name, format) => {
    const result = importTranscript(fixture(name));
    expect(result.format).toBe(format);
    expect(result.sessions.length).toBeGreaterThan(0);
    expectWellFormed(result);
  });

  it("uses the format it is given", () => {
    expect(importTranscript(fixture("codex/rollout-sample.jsonl"), "codex").format).toBe("codex");
  });

  it("refuses an unsupported file, naming the supported formats and what the file looked like", () => {
    expect(() => importTranscript(utf8("just some notes\n"))).toThrow(TranscriptImportError);
    expect(() => importTranscript(utf8("just some notes\n"))).toThrow(/text beginning "just some notes"/);
    expect(() => importTranscript(utf8("just some notes\n"))).toThrow(`Supported formats: ${IMPORT_FORMATS.join(", ")}`);
    expect(() => importTranscript(utf8('{"name":"package","version":"1.0.0"}'))).toThrow(/keys name, version/);
    expect(() => importTranscript(utf8("{}"), "gemini" as ImportFormat)).toThrow(/Unknown transcript format "gemini"/);
  });

  it("refuses a forced format that finds no session in the file", () => {
    try {
      importTranscript(fixture("codex/rollout-sample.jsonl"), "claude-code");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(TranscriptImportError);
      expect((error as TranscriptImportError).code).toBe("NO_SESSIONS_FOUND");
    }
  });
});

describe("damaged files", () => {
  it.each(FIXTURES)(
    "%s cut at any point still imports without throwing",
    (name, format) => {
      const bytes = fixture(name);
      const full = IMPORTERS[format].parse(bytes);
      const fullSpans = full.sessions.reduce((n, s) => n + s.spans.length, 0);
      for (const cut of cutPoints(bytes)) {
        const result = IMPORTERS[format].parse(bytes.subarray(0, cut));
        expectWellFormed(result);
        // Losing the end of a file never invents spans.
        expect(result.sessions.reduce((n, s) => n + s.spans.length, 0)).toBeLessThanOrEqual(fullSpans);
      }
      // Each cut is a whole import of a file of up to megabytes: seconds alone, more on a busy
      // machine; the limit only stops a hang.
    },
    60_000,
  );

  it.each(FIXTURES)(
    "%s with random bytes overwritten still imports without throwing",
    (name, format) => {
      const bytes = fixture(name);
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.nat({ max: bytes.length - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
          (edits) => {
            const copy = bytes.slice();
            for (const [at, value] of edits) copy[at] = value;
            expectWellFormed(IMPORTERS[format].parse(copy));
          },
        ),
        { numRuns: sizedRuns(20, bytes) },
      );
      // Twenty parses of the largest fixtures took about 2 s alone; what is checked is that none throws.
    },
    30_000,
  );
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectFormat, IMPORTERS, importTranscript, TranscriptImportError } from "./index";
import { expectWellFormed, fixture } from "./testkit";
import { IMPORT_FORMATS, type ImportFormat } from "./types";
import { utf8 } from "./text";

const FIXTURES: Array<[string, ImportFormat]> = [
  ["claude-code-session.jsonl", "claude-code"],
  ["claude-code-continued.jsonl", "claude-code"],
  ["codex/rollout-sample.jsonl", "codex"],
  ["codex/forked-sample.jsonl", "codex"],
  ["openhands/handwritten-trajectory.json", "openhands"],
  ["openhands/classic-basic-gui-mode.json", "openhands"],
  ["openhands/sdk-goal-events.jsonl", "openhands"],
  ["openhands/eval-sdk-openagentsafety-output.jsonl", "openhands"],
  ["openhands/handwritten-events.jsonl", "openhands"],
  ["otel-genai/hand-traces.json", "otel-genai"],
  ["otel-genai/hand-collector.jsonl", "otel-genai"],
];

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
    expect(() => importTranscript(utf8("just some notes\n"))).toThrow(
      /text beginning "just some notes".*Supported formats: claude-code, codex, openhands, otel-genai/,
    );
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
  it.each(FIXTURES)("%s cut at any point still imports without throwing", (name, format) => {
    const bytes = fixture(name);
    const full = IMPORTERS[format].parse(bytes);
    const fullSpans = full.sessions.reduce((n, s) => n + s.spans.length, 0);
    for (let cut = 0; cut <= bytes.length; cut += 37) {
      const result = IMPORTERS[format].parse(bytes.subarray(0, cut));
      expectWellFormed(result);
      // Losing the end of a file never invents spans.
      expect(result.sessions.reduce((n, s) => n + s.spans.length, 0)).toBeLessThanOrEqual(fullSpans);
    }
  });

  it.each(FIXTURES)("%s with random bytes overwritten still imports without throwing", (name, format) => {
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
      { numRuns: 60 },
    );
  });
});

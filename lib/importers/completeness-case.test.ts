/**
 * Over every real fixture, every canned question: a NO carries a completeness case that holds, and
 * an insufficient answer one that names what fails (docs/design.md, "A NO carries its completeness case").
 */
import { describe, expect, it } from "vitest";
import { CANNED_QUESTIONS } from "@/lib/evidence/questions";
import { answerOverImport } from "./shared/answer-testkit";
import { importTranscript } from "./index";
import { fixture } from "./shared/testkit";

const REAL = [
  "claude-code/spotter-subagent-progress.jsonl",
  "claude-code/spotter-tool-heavy.jsonl",
  "claude-code/spotter-agent-aac57f5.jsonl",
  "claude-code/spotter-agent-acompact-70d8e7.jsonl",
  "claude-code/kimuson-1.0.98-inline-sidechains-fe5e1c67.jsonl.gz",
  "codex/yoavf-pomodoro-0.47.jsonl",
  "codex/codemie-tui-0.125.jsonl",
  "codex/desktop-0.104-unfinished-turns-019c8a53.jsonl.gz",
  "openhands/classic-basic-gui-mode.json",
  "openhands/sdk-goal-events.jsonl",
  "openhands/eval-multi-swe-bench-output.jsonl",
  "openhands/eval-sdk-openagentsafety-output.jsonl",
  "openhands/resolver-output-flat-events.jsonl",
  "otel-genai/kagent-tempo-export.json",
  "otel-genai/packet-panic-jaeger-get-inventory.json",
  "swe-agent/marshmallow-code__marshmallow-1867.function-calling.traj",
  "swe-agent/pydicom__pydicom-1458.traj",
  "swe-agent/swe-agent__test-repo-i1.traj",
  "gemini-cli/codemie-session-2025-12-01.json",
  "gemini-cli/codemie-session-2026-01-16-file-ops.json",
  "gemini-cli/entire-0.23-session-f7633853.json",
  "aider/afi-core.aider.chat.history.md",
  "aider/monochromatic.aider.chat.history.md",
];

describe("the completeness case over real transcripts", () => {
  it.each(REAL)("%s: NO only with the case met, INSUFFICIENT naming what fails", (name) => {
    const result = importTranscript(fixture(name));
    for (const q of Object.values(CANNED_QUESTIONS)) {
      const a = answerOverImport(result, q);
      if (a.answer === "NO") {
        expect(a.completeness.holds, q.id).toBe(true);
        expect(a.skippedRecords, q.id).toEqual([]);
      }
      if (a.answer === "INSUFFICIENT_EVIDENCE") {
        const failing = a.completeness.conditions.filter((c) => !c.holds);
        expect(failing.length, q.id).toBeGreaterThan(0);
        expect(a.blockers.length + a.gaps.length + a.skippedRecords.length + (a.noSpansInScope ? 1 : 0), q.id).toBeGreaterThan(0);
      }
    }
  });
});

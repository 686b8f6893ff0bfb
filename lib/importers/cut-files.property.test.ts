/**
 * Hunting false NOs: every real fixture, cut at random points, asked every canned question. No cut
 * may turn the whole file's YES or INSUFFICIENT_EVIDENCE into NO, over the sessions the cut keeps
 * (a cut that removes a whole session removes it from the question's scope, which is no answer
 * about it). The cuts:
 *
 * - a prefix or a suffix removed at a random byte: the record cut through is unreadable;
 * - a prefix removed at a record boundary, for the formats whose files say where their session
 *   starts (Claude Code's parent chain, Aider's header, Codex's session_meta, OpenHands classic's
 *   event ids from 0);
 * - one record dropped, other than the last, for the formats whose records name each other
 *   (Claude Code's parent chain);
 * - a suffix removed at a record boundary, for the files whose runtime closes what it starts
 *   (a Codex rollout with turn events: every task_started ends in task_complete or turn_aborted).
 *
 * What no reader can tell, and so is not generated: a suffix removed at a record boundary of the
 * other files (their runtimes write no closing record, so a file that ends there is a session that
 * ended there, or has not yet gone on), a file starting at a record boundary in a format with no start
 * record (an OpenHands SDK excerpt), and a record dropped where nothing names it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CANNED_QUESTIONS } from "@/lib/evidence/questions";
import { answerOverImport } from "./shared/answer-testkit";
import { importTranscript } from "./index";
import { fixture } from "./shared/testkit";
import type { ImportFormat, ImportResult } from "./shared/types";

/** The real fixtures with a session or more, each small enough to import a few dozen times a second. */
const REAL: Array<[string, ImportFormat, { starts?: boolean; linked?: boolean; ends?: boolean }]> = [
  ["claude-code/spotter-tool-heavy.jsonl", "claude-code", { starts: true, linked: true }],
  ["claude-code/spotter-agent-aac57f5.jsonl", "claude-code", { starts: true, linked: true }],
  ["claude-code/kimuson-1.0.98-inline-sidechains-fe5e1c67.jsonl.gz", "claude-code", { starts: true, linked: true }],
  ["claude-code/entire-2.1.12-linear-mcp-8b418ea5.jsonl.gz", "claude-code", { starts: true, linked: true }],
  ["codex/yoavf-pomodoro-0.47.jsonl", "codex", { starts: true }],
  ["codex/desktop-0.104-unfinished-turns-019c8a53.jsonl.gz", "codex", { starts: true, ends: true }],
  ["codex/real-exec-0.135.jsonl", "codex", { starts: true, ends: true }],
  ["openhands/classic-basic-gui-mode.json", "openhands", { starts: true }],
  ["openhands/sdk-goal-events.jsonl", "openhands", {}],
  ["openhands/eval-sdk-openagentsafety-output.jsonl", "openhands", {}],
  ["swe-agent/swe-agent__test-repo-i1.traj", "swe-agent", {}],
  ["gemini-cli/entire-0.23-session-f7633853.json", "gemini-cli", {}],
  ["aider/afi-core.aider.chat.history.md", "aider", { starts: true }],
];

const QUESTIONS = Object.values(CANNED_QUESTIONS);

/** Cuts per file: a few seconds in the suite; CUT_FILE_RUNS sets more for a longer hunt. */
const RUNS = Number(process.env.CUT_FILE_RUNS ?? 12);

function importOrNull(bytes: Uint8Array, format: ImportFormat): ImportResult | null {
  try {
    return importTranscript(bytes, format);
  } catch {
    return null; // a file cut so far that it is refused: no answer, so no false one
  }
}

/** The whole file's sessions that hold a span from one of `kept` lines: the cut's scope. */
function keptSessions(whole: ImportResult, kept: (line: number) => boolean, document: boolean): ImportResult {
  // A JSON document's spans carry record indexes, not lines: any cut of it keeps all or nothing.
  if (document) return whole;
  return { ...whole, sessions: whole.sessions.filter((s) => s.spans.some((x) => kept(x.sourceLine))) };
}

type Cut = { kind: "prefix" | "suffix" | "drop"; at: number; boundary: boolean };

function cutFile(bytes: Uint8Array, starts: number[], cut: Cut): { bytes: Uint8Array; kept: (line: number) => boolean } {
  const lineOf = (offset: number) => {
    let lo = 0;
    while (lo + 1 < starts.length && starts[lo + 1]! <= offset) lo++;
    return lo + 1;
  };
  if (cut.kind === "drop") {
    const line = cut.at + 1;
    const from = starts[cut.at]!;
    const to = starts[cut.at + 1] ?? bytes.length;
    const dropped = new Uint8Array(bytes.length - (to - from));
    dropped.set(bytes.subarray(0, from));
    dropped.set(bytes.subarray(to), from);
    return { bytes: dropped, kept: (l) => l !== line };
  }
  const offset = cut.boundary ? starts[cut.at]! : cut.at;
  const line = lineOf(offset);
  if (cut.kind === "prefix") return { bytes: bytes.slice(offset), kept: (l) => l >= line };
  return { bytes: bytes.slice(0, offset), kept: (l) => l <= line };
}

describe("a cut file never answers NO where the whole file did not", () => {
  for (const [name, format, knows] of REAL) {
    const bytes = fixture(name);
    const whole = importTranscript(bytes, format);
    const starts = [0];
    bytes.forEach((b, i) => {
      if (b === 0x0a && i + 1 < bytes.length) starts.push(i + 1);
    });
    const document = name.endsWith(".json") || name.endsWith(".traj");
    const cuts: Array<fc.Arbitrary<Cut>> = [
      fc.record({
        kind: fc.constantFrom("prefix" as const, "suffix" as const),
        at: fc.integer({ min: 1, max: bytes.length - 1 }),
        boundary: fc.constant(false),
      }),
    ];
    if (knows.starts && !document)
      cuts.push(
        fc.record({
          kind: fc.constant("prefix" as const),
          at: fc.integer({ min: 1, max: starts.length - 1 }),
          boundary: fc.constant(true),
        }),
      );
    if (knows.ends && !document)
      cuts.push(
        fc.record({
          kind: fc.constant("suffix" as const),
          at: fc.integer({ min: 1, max: starts.length - 1 }),
          boundary: fc.constant(true),
        }),
      );
    if (knows.linked)
      cuts.push(
        fc.record({
          kind: fc.constant("drop" as const),
          at: fc.integer({ min: 0, max: starts.length - 2 }),
          boundary: fc.constant(true),
        }),
      );

    it(name, () => {
      fc.assert(
        fc.property(fc.oneof(...cuts), (c) => {
          // A byte cut that lands on a record boundary is a boundary cut: see what is generated above.
          if (!c.boundary && (starts.includes(c.at) || (c.kind === "suffix" && bytes[c.at - 1] === 0x0a))) return;
          const { bytes: cut, kept } = cutFile(bytes, starts, c);
          const after = importOrNull(cut, format);
          if (!after || after.sessions.length === 0) return;
          const before = keptSessions(whole, kept, document);
          for (const q of QUESTIONS) {
            const was = answerOverImport(before, q).answer;
            if (was === "NO") continue;
            const now = answerOverImport(after, q).answer;
            expect(now, `${q.id}: ${JSON.stringify(c)} was ${was}`).not.toBe("NO");
          }
        }),
        { numRuns: RUNS, ...(process.env.CUT_FILE_RUNS ? {} : { seed: 24 }) },
      );
    }, 600_000);
  }
});

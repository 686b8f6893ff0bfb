/**
 * OpenHands event streams that end before their run did: a real GUI-mode trajectory
 * (fixtures/openhands, classic-basic-gui-mode.json) whole, its array left open, and its run's
 * closing state cut off; an agent-SDK stream whose conversation is still running.
 */
import { describe, expect, it } from "vitest";
import { CANNED_QUESTIONS } from "@/lib/evidence/questions";
import { answerOverImport } from "../shared/answer-testkit";
import { importTranscript } from "../index";
import { endsBeforeSession } from "../shared/partial-end";
import { expectWellFormed, fixture, only } from "../shared/testkit";

const events = JSON.parse(new TextDecoder().decode(fixture("openhands/classic-basic-gui-mode.json"))) as unknown[];
const encode = (text: string) => new TextEncoder().encode(text);
const endMarks = (bytes: Uint8Array) =>
  only(importTranscript(bytes, "openhands"))
    .skipped.filter(endsBeforeSession)
    .map((s) => [s.line, s.message]);
const canned = (bytes: Uint8Array) =>
  Object.values(CANNED_QUESTIONS).map((q) => answerOverImport(importTranscript(bytes, "openhands"), q).answer);

describe("an OpenHands classic trajectory", () => {
  it("whole, its run stopped awaiting the user's input: no end mark", () => {
    const bytes = fixture("openhands/classic-basic-gui-mode.json");
    expectWellFormed(importTranscript(bytes, "openhands"));
    expect(endMarks(bytes)).toEqual([]);
    expect(canned(bytes)).toContain("NO");
  });

  it("whose event array is not closed ends before its run did", () => {
    // The 18 events as the file has them, the closing bracket gone (a file still being written).
    const open = new TextDecoder().decode(fixture("openhands/classic-basic-gui-mode.json")).trimEnd().replace(/\]$/, "");
    expect(endMarks(encode(open))).toEqual([[19, expect.stringMatching(/the event array is not closed/)]]);
    expect(canned(encode(open))).not.toContain("NO");
  });

  it("whose last state is running (its closing state change cut off) ends before its run did", () => {
    const cut = encode(JSON.stringify(events.slice(0, 17), null, 2));
    expect(endMarks(cut)).toEqual([[18, expect.stringMatching(/the run's last state \(at 6\) is "running"/)]]);
    expect(canned(cut)).not.toContain("NO");
  });
});

describe("an OpenHands agent-SDK event stream", () => {
  // The SDK's own test excerpt (fixtures/openhands, sdk-goal-events.jsonl): its one execution status is "running".
  const excerpt = new TextDecoder().decode(fixture("openhands/sdk-goal-events.jsonl")).trimEnd();

  it("whose last execution status is running ends before its conversation did", () => {
    expect(endMarks(encode(`${excerpt}\n`))).toEqual([
      [11, expect.stringMatching(/last execution status \(at 1\) is "running"/)],
    ]);
  });

  it("that records the status the conversation stopped in has no end mark", () => {
    const finished = JSON.stringify({
      id: "5e0c2f0e-8a57-4a55-9d6e-1c2b3a4d5e6f",
      timestamp: "2026-06-16T05:40:02.000000",
      source: "environment",
      key: "execution_status",
      value: "finished",
      kind: "ConversationStateUpdateEvent",
    });
    expect(endMarks(encode(`${excerpt}\n${finished}\n`))).toEqual([]);
  });
});

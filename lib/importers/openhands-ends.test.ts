/**
 * OpenHands classic event streams that end before their run did: a real GUI-mode trajectory
 * (fixtures/openhands, classic-basic-gui-mode.json) whole, its array left open, and its run's
 * closing state cut off.
 */
import { describe, expect, it } from "vitest";
import { CANNED_QUESTIONS } from "@/lib/evidence/questions";
import { answerOverImport } from "./answer-testkit";
import { importTranscript } from "./index";
import { endsBeforeSession } from "./partial-end";
import { expectWellFormed, fixture, only } from "./testkit";

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

/**
 * Codex notices that report a change to the world, read as evidence.
 *
 * Codex's `/undo` restores the workspace's ghost snapshot (codex-rs core/src/tasks/undo.rs): tracked
 * files rewritten, files created since removed. A real rollout (fixtures/codex, yoavf-pomodoro-0.47,
 * written by the 0.47 runtime that had `/undo`) with the `undo_completed` event its recorder persists
 * after an undo, as codex-rs serializes `UndoCompletedEvent {success, message}` with the messages the
 * undo task writes.
 */
import { describe, expect, it } from "vitest";
import { CANNED_QUESTIONS } from "@/lib/evidence/questions";
import { answerOverImport } from "../shared/answer-testkit";
import { UNDO_TOOL } from "./undo";
import { importTranscript } from "../index";
import { expectWellFormed, fixture, only } from "../shared/testkit";

const rollout = new TextDecoder().decode(fixture("codex/yoavf-pomodoro-0.47.jsonl")).trimEnd();
const withUndo = (payload: Record<string, unknown>) =>
  new TextEncoder().encode(
    `${rollout}\n${JSON.stringify({ timestamp: "2025-10-21T20:12:03.114Z", type: "event_msg", payload: { type: "undo_completed", ...payload } })}\n`,
  );
const restored = withUndo({ success: true, message: "Undo restored snapshot d1417b6." });

describe("a Codex undo_completed event", () => {
  it("is the restore it reports: a call that rewrote the workspace and removed new files, not an ignored notice", () => {
    const result = importTranscript(restored);
    expectWellFormed(result);
    expect(result.records.ignoredByType.undo_completed).toBeUndefined();
    const [call, output] = only(result).spans.slice(-2);
    expect(call).toMatchObject({
      kind: "TOOL_CALL",
      toolName: UNDO_TOOL,
      outcome: "SUCCEEDED",
      cwd: "/Users/yoavfarhi/dev/pomodoro/codex",
    });
    expect(call!.toolInput).toEqual({
      workspace: "/Users/yoavfarhi/dev/pomodoro/codex",
      new_files_under: "/Users/yoavfarhi/dev/pomodoro/codex",
      snapshot: "d1417b6",
    });
    expect(new TextDecoder().decode(output!.body)).toBe(
      '{"type":"undo_completed","success":true,"message":"Undo restored snapshot d1417b6."}',
    );
  });

  it("turns the real rollout's NO to 'did we delete files?' into a YES citing the undo", () => {
    expect(
      answerOverImport(importTranscript(fixture("codex/yoavf-pomodoro-0.47.jsonl")), CANNED_QUESTIONS["deleted-files"]).answer,
    ).toBe("NO");
    const answer = answerOverImport(importTranscript(restored), CANNED_QUESTIONS["deleted-files"]);
    expect(answer.answer).toBe("YES");
    expect(answer.outcomes).toEqual({ SUCCEEDED: 1 });
    expect(answer.citations.map((c) => [c.excerpt, c.effect])).toEqual([["/Users/yoavfarhi/dev/pomodoro/codex", "FILE_DELETE"]]);
  });

  it("reads what became of it from success and the undo task's own messages", () => {
    const outcome = (payload: Record<string, unknown>) => only(importTranscript(withUndo(payload))).spans.at(-2)?.outcome;
    expect(outcome({ success: false, message: "No ghost snapshot available to undo." })).toBe("NOT_RUN");
    expect(outcome({ success: false, message: "Undo cancelled." })).toBe("NOT_RUN");
    // Stopped inside the restore: files may already have changed.
    expect(outcome({ success: false, message: "Failed to restore snapshot d1417b6e: git restore failed" })).toBe("FAILED");
    expect(outcome({ message: "Undo in progress..." })).toBe("UNKNOWN");
  });
});

describe("a Codex sub_agent_activity event", () => {
  // codex-rs protocol `SubAgentActivityEvent {event_id, occurred_at_ms, agent_thread_id, agent_path, kind}`.
  const activity = (kind: string) =>
    new TextEncoder().encode(
      `${rollout}\n${JSON.stringify({
        timestamp: "2025-10-21T20:12:03.114Z",
        type: "event_msg",
        payload: {
          type: "sub_agent_activity",
          event_id: "ev-1",
          occurred_at_ms: 1761077523114,
          agent_thread_id: "019a0866-1b2c-7d3e-8f40-5a6b7c8d9e0f",
          agent_path: "/root/explorer",
          kind,
        },
      })}\n`,
    );

  it("that reports a subagent interrupted is kept whole as a system message: an agent stopped", () => {
    const result = importTranscript(activity("interrupted"));
    expectWellFormed(result);
    const last = only(result).spans.at(-1)!;
    expect(last).toMatchObject({ kind: "MESSAGE", role: "system" });
    expect(new TextDecoder().decode(last.body)).toMatch(/^\{"type":"sub_agent_activity",.*"kind":"interrupted"\}$/);
  });

  it("that reports a subagent started stays ignored: its spawn is its own call record", () => {
    expect(importTranscript(activity("started")).records.ignoredByType.sub_agent_activity).toBe(1);
  });
});

/**
 * A live session's file ends early at every read: a real Codex rollout (fixtures/codex,
 * codemie-tui-0.125) imported while its second turn ran, then again once it had closed, and synced
 * the way the hooks sync it, read after read.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { importTranscript } from "@/lib/importers";
import { endsBeforeSession } from "@/lib/importers/shared/partial-end";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { importTranscriptFile } from "@/lib/server/imports/import-file";
import { syncHookTranscript } from "@/lib/server/integrations";
import { askEvidenceQuestion } from "@/lib/server/questions/ask";
import { supersedeEndMarks } from "./partial-end";

const lines = readFileSync(path.resolve("lib/importers/fixtures/codex/codemie-tui-0.125.jsonl"), "utf8").trimEnd().split("\n");
const upTo = (n: number) => new TextEncoder().encode(`${lines.slice(0, n).join("\n")}\n`);
const marksOf = async (sessionId: string) =>
  (await db().skippedRecord.findMany({ where: { sessionId }, orderBy: { line: "asc" } })).map((r) => [r.line, r.reason]);

describe("an end mark stands until a later read of its session reaches past it", () => {
  it("a file imported while its turn ran, then imported whole: the stale mark goes, the answer is NO again", async () => {
    const project = await makeTestProject("partial-end-import");
    const first = await importTranscriptFile(project.id, upTo(200), { requester: "test" });
    const sessionId = first.sessions[0]!.id;
    expect(await marksOf(sessionId)).toEqual([[201, expect.stringMatching(/^the file ends before its session ended/)]]);
    const ask = () => askEvidenceQuestion({ projectId: project.id, question: { canned: "deleted-files" } });
    expect((await ask()).answer).toBe("INSUFFICIENT_EVIDENCE");

    // The same part again reads no further: its mark stands.
    await importTranscriptFile(project.id, upTo(200), { requester: "test" });
    expect(await marksOf(sessionId)).toHaveLength(1);
    // Still running further on: the old mark goes, the new end is marked.
    await importTranscriptFile(project.id, upTo(300), { requester: "test" });
    expect((await marksOf(sessionId)).map(([line]) => line)).toEqual([301]);
    // The whole file, its turn closed: no mark.
    await importTranscriptFile(project.id, upTo(lines.length), { requester: "test" });
    expect(await marksOf(sessionId)).toEqual([]);
    expect((await ask()).answer).toBe("NO");
  });

  it("synced read after read as the hooks do: each sync's lines read supersede the last sync's end mark", async () => {
    const project = await makeTestProject("partial-end-sync");
    const sync = async (n: number, linesRead?: number) => {
      const found = importTranscript(upTo(n), "codex").sessions[0]!;
      return syncHookTranscript(
        project.id,
        {
          session: { externalId: found.externalId, runtime: "codex" },
          spans: [],
          skipped: found.skipped.map((k) => ({ line: k.line, reason: k.message })),
          ...(linesRead !== undefined ? { linesRead } : {}),
          compactions: [],
          gate: false,
        },
        "test",
      );
    };
    const { sessionId } = await sync(150, 150);
    expect((await marksOf(sessionId)).map(([line]) => line)).toEqual([151]);
    await sync(250, 250);
    expect((await marksOf(sessionId)).map(([line]) => line)).toEqual([251]);
    // A hook that sends no line count (an older one) leaves the mark: the session stays incomplete.
    await sync(lines.length);
    expect((await marksOf(sessionId)).map(([line]) => line)).toEqual([251]);
    await sync(lines.length, lines.length);
    expect(await marksOf(sessionId)).toEqual([]);
  });

  it("never removes another reason, nor a mark sharing its line with one", async () => {
    const project = await makeTestProject("partial-end-other");
    const first = await importTranscriptFile(project.id, upTo(200), { requester: "test" });
    const sessionId = first.sessions[0]!.id;
    await db().skippedRecord.createMany({
      data: [
        { sessionId, line: 5, reason: 'unknown event type "x"; skipped' },
        { sessionId, line: 6, reason: 'unknown event type "y"; skipped; the file ends before its session ended: shared' },
      ],
    });
    expect(await supersedeEndMarks(sessionId, 1_000)).toBe(1);
    const left = await marksOf(sessionId);
    expect(left.map(([line]) => line)).toEqual([5, 6]);
    expect(left.filter(([, reason]) => endsBeforeSession({ message: String(reason) }))).toEqual([]);
  });
});

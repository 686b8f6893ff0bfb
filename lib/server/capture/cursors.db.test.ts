import { describe, expect, it } from "vitest";
import { inTimeZone } from "@/lib/core/test-time-zone";
import { db } from "@/lib/db/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { loadTranscriptCursor, saveTranscriptCursor, type TranscriptCursorRow } from "./cursors";

describe("a transcript file's cursor", () => {
  it("is written and rewritten as it is read back, its times as stored UTC, whatever the process's zone", async () => {
    await inTimeZone("America/New_York", async () => {
      const project = await makeTestProject("cursor-save");
      const first: TranscriptCursorRow = {
        path: "/home/dev/.claude/projects/x/session.jsonl",
        runtime: "claude-code",
        identity: "2049:18446744073709551615",
        size: 5_000_000_000,
        mtime: new Date("2026-07-01T23:30:00.123Z"),
        state: { transcriptPath: "/home/dev/x.jsonl", bytes: 120, lines: 3, nextSeq: 2 },
        bytes: 120,
        error: null,
        deleteAt: new Date("2026-07-31T23:30:00.123Z"),
      };
      await saveTranscriptCursor(project.id, first);
      expect(await loadTranscriptCursor(project.id, first.path)).toEqual(first);

      const second = { ...first, size: 240, bytes: 240, error: "the file could not be read", deleteAt: null, state: null };
      await saveTranscriptCursor(project.id, second);
      expect(await loadTranscriptCursor(project.id, first.path)).toEqual(second);
      // Prisma's reads of the same row (the watcher lists cursors through it) agree.
      const row = await db().transcriptCursor.findUniqueOrThrow({
        where: { projectId_path: { projectId: project.id, path: first.path } },
      });
      expect(row.mtime.toISOString()).toBe("2026-07-01T23:30:00.123Z");
      expect(row.updatedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
      expect(row.updatedAt.getTime()).toBeLessThanOrEqual(Date.now());
    });
  });
});

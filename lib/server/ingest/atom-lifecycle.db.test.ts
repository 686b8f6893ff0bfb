/**
 * Atoms have no foreign key to their span (checking it cost an index lookup per atom): a statement
 * trigger on span deletes them with it. Deleting spans, or a whole session through span's cascade,
 * leaves no atom behind, and deletes no other span's.
 */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { appendSpans, upsertSession } from "./append";

const at = new Date("2026-11-20T08:00:00.000Z");
const call = (seq: number, path: string) => ({
  seq,
  kind: "TOOL_CALL" as const,
  toolName: "Write",
  toolInput: { file_path: path },
  occurredAt: new Date(at.getTime() + seq * 1000),
  body: new TextEncoder().encode(JSON.stringify({ file_path: path, content: "x = 1" })),
});

async function sessionWithAtoms(projectId: string, externalId: string) {
  const { session } = await upsertSession(projectId, { externalId, runtime: "test" });
  const spans = await appendSpans(projectId, session.id, [call(0, "/etc/a.conf"), call(1, "/etc/b.conf"), call(2, "/srv/c.txt")]);
  return { id: session.id, spans };
}

const atomsOf = (sessionId: string) => db().evidenceAtom.findMany({ where: { sessionId }, select: { spanId: true } });

describe("a span's atoms go with it", () => {
  it("deleting spans deletes their atoms and only theirs", async () => {
    const project = await makeTestProject("atoms-span-delete");
    const { id, spans } = await sessionWithAtoms(project.id, "s1");
    expect((await atomsOf(id)).length).toBeGreaterThanOrEqual(3);
    await db().span.deleteMany({ where: { sessionId: id, id: { in: [spans[0]!.id, spans[2]!.id] } } });
    const left = await atomsOf(id);
    expect(left.length).toBeGreaterThan(0);
    expect(new Set(left.map((a) => a.spanId))).toEqual(new Set([spans[1]!.id]));
  });

  it("deleting a session (span's cascade) deletes its atoms and leaves another session's", async () => {
    const project = await makeTestProject("atoms-session-delete");
    const gone = await sessionWithAtoms(project.id, "gone");
    const kept = await sessionWithAtoms(project.id, "kept");
    const keptBefore = (await atomsOf(kept.id)).length;
    await db().session.delete({ where: { id: gone.id } });
    expect(await atomsOf(gone.id)).toEqual([]);
    expect((await atomsOf(kept.id)).length).toBe(keptBefore);
  });
});

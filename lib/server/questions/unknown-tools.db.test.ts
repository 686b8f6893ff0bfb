/**
 * A call of a tool whose effects are not known, stored and asked over SQL: it blocks a NO to every
 * side-effect question exactly as the pure engine does, and stored verdicts say the same. The
 * session is a hand-written Claude Code 2.1 file (the record shapes of the real ones under
 * lib/importers/fixtures/claude-code) whose one call is context7's resolve-library-id, a real MCP
 * tool whose name says nothing of what it does.
 */
import { describe, expect, it } from "vitest";
import { CANNED_QUESTION_IDS, CANNED_QUESTIONS } from "@/lib/evidence/questions";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { importTranscriptFile } from "@/lib/server/imports";
import { answerOverImport } from "@/lib/importers/shared/answer-testkit";
import { importTranscript } from "@/lib/importers";
import { db } from "@/lib/db/client";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { askEvidenceQuestion } from "./ask";

const encode = (text: string) => new TextEncoder().encode(text);

const base = {
  sessionId: "7b1e4c1a-1111-4a5b-9c1d-2e3f4a5b6c7d",
  cwd: "/work/app",
  version: "2.1.12",
  isSidechain: false,
  userType: "external",
};
const lines = [
  {
    ...base,
    type: "user",
    uuid: "u1",
    parentUuid: null,
    timestamp: "2026-01-20T10:00:00.000Z",
    message: { role: "user", content: "Which go-git release fixes checkout?" },
  },
  {
    ...base,
    type: "assistant",
    uuid: "a1",
    parentUuid: "u1",
    timestamp: "2026-01-20T10:00:01.000Z",
    message: {
      role: "assistant",
      content: [
        { type: "tool_use", id: "toolu_01", name: "mcp__context7__resolve-library-id", input: { libraryName: "go-git" } },
      ],
    },
  },
  {
    ...base,
    type: "user",
    uuid: "u2",
    parentUuid: "a1",
    timestamp: "2026-01-20T10:00:02.000Z",
    message: {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_01", content: "Available Libraries: /go-git/go-git" }],
    },
  },
  {
    ...base,
    type: "assistant",
    uuid: "a2",
    parentUuid: "u2",
    timestamp: "2026-01-20T10:00:03.000Z",
    message: { role: "assistant", content: [{ type: "text", text: "v5.16.5." }] },
  },
];
const FILE = new TextEncoder().encode(lines.map((l) => JSON.stringify(l)).join("\n"));

describe("an unknown tool's call over SQL", () => {
  it("blocks every canned question as the pure engine does, first asked and again from stored verdicts", async () => {
    const pure = importTranscript(FILE, "claude-code");
    const project = await makeTestProject("unknown-tool-blocks");
    await importTranscriptFile(project.id, FILE, { requester: "test", format: "claude-code" });
    for (const id of CANNED_QUESTION_IDS) {
      const expected = answerOverImport(pure, CANNED_QUESTIONS[id]);
      expect(expected.answer, id).toBe("INSUFFICIENT_EVIDENCE");
      for (const round of [1, 2]) {
        const stored = await askEvidenceQuestion({ projectId: project.id, question: { canned: id } });
        expect(stored.answer, `${id} #${round}`).toBe("INSUFFICIENT_EVIDENCE");
        expect(
          stored.blockers.map((b) => [b.seq, b.unknownEffect, b.reason]),
          id,
        ).toEqual(expected.blockers.map((b) => [b.seq, true, b.reason]));
        expect(stored.completeness.conditions.find((c) => c.id === "effects")?.holds, id).toBe(false);
      }
    }
  });
});

describe("a call of a tool whose effects are not known, marked on its span", () => {
  it("is marked from its atoms, imported or appended, and nothing else is", async () => {
    const project = await makeTestProject("unknown-call-flag");
    const imported = await importTranscriptFile(project.id, FILE, { requester: "test", format: "claude-code" });
    const sessionId = imported.sessions[0]!.id;
    const appended = await upsertSession(project.id, { externalId: "appended", runtime: "claude-code", cwd: "/work/app" });
    const at = new Date(Date.UTC(2026, 0, 20, 11));
    const input = { libraryName: "zod" };
    await appendSpans(project.id, appended.session.id, [
      {
        seq: 0,
        kind: "TOOL_CALL",
        toolName: "mcp__acme__sync-registry",
        toolInput: input,
        occurredAt: at,
        body: encode(JSON.stringify(input)),
      },
      {
        seq: 1,
        kind: "TOOL_CALL",
        toolName: "Read",
        toolInput: { file_path: "/work/app/a.ts" },
        occurredAt: at,
        body: encode('{"file_path":"/work/app/a.ts"}'),
      },
    ]);
    const rows = await db().$queryRaw<Array<{ session_id: string; seq: number; unknown_call: boolean; atoms: boolean }>>`
      select s.session_id::text, s.seq, s.unknown_call,
             exists (select 1 from evidence_atom a where a.session_id = s.session_id and a.span_id = s.id
                      and a.effect = 'UNKNOWN_TOOL' and not a.negated) as atoms
        from span s join session se on se.id = s.session_id where se.project_id = ${project.id}::uuid
       order by se.created_at, s.seq`;
    expect(rows.filter((r) => r.unknown_call).map((r) => [r.session_id, r.seq])).toEqual([
      [sessionId, 1],
      [appended.session.id, 0],
    ]);
    for (const r of rows) expect(r.unknown_call, `${r.session_id} #${r.seq}`).toBe(r.atoms);
  });
});

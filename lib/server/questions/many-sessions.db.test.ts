/**
 * A scope naming many sessions (more than FEW_SESSIONS) is read as a set joined with, like a
 * project's sessions; a few named sessions are read session by session. Either way the answer over
 * every session of a project is the answer over the project.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { appendSpans, upsertSession, type SpanSubmission } from "@/lib/server/ingest/append";
import { askEvidenceQuestion } from "./ask";
import { FEW_SESSIONS } from "./scope";

const T = new Date("2026-04-01T00:00:00.000Z");
const enc = (s: string) => new TextEncoder().encode(s);

function write(seq: number, path: string): SpanSubmission {
  const input = { file_path: path, content: "x" };
  return { seq, kind: "TOOL_CALL", toolName: "Write", toolInput: input, occurredAt: T, body: enc(JSON.stringify(input)) };
}

describe("scopes naming many sessions", () => {
  it("answer as the project does, and as a few of them do", async () => {
    const project = await makeTestProject("manysessions");
    const ids: string[] = [];
    for (let i = 0; i < FEW_SESSIONS + 5; i++) {
      const { session } = await upsertSession(project.id, {
        externalId: `s${i}-${randomUUID()}`,
        runtime: "claude-code",
        cwd: "/srv/app",
      });
      // Every seventh session writes system config; one in five writes through a tool nobody knows.
      const spans = [write(0, i % 7 === 0 ? `/etc/app${i}.conf` : `/srv/app/f${i}.ts`)];
      if (i % 5 === 0)
        spans.push({
          seq: 1,
          kind: "TOOL_CALL",
          toolName: `mcp__x__do${i}`,
          toolInput: { a: i },
          occurredAt: T,
          body: enc(`{"a":${i}}`),
        });
      await appendSpans(project.id, session.id, spans);
      ids.push(session.id);
    }
    const comparable = (a: Awaited<ReturnType<typeof askEvidenceQuestion>>) => ({
      answer: a.answer,
      citations: a.citations.map((c) => [c.spanId, c.byteStart, c.byteEnd]),
      blockers: a.blockers.map((b) => b.spanId),
      counts: [a.citationCount, a.blockerCount, a.checkedSpans],
    });
    for (const canned of ["modified-system-config", "wrote-outside-cwd"]) {
      const whole = await askEvidenceQuestion({ projectId: project.id, question: { canned } }, T);
      const named = await askEvidenceQuestion({ projectId: project.id, question: { canned }, scope: { sessionIds: ids } }, T);
      expect(whole.citationCount).toBeGreaterThan(0);
      expect(comparable(named)).toEqual(comparable(whole));
      // The first few sessions alone hold the citations and blockers of theirs among the project's.
      const few = ids.slice(0, 10);
      const part = await askEvidenceQuestion({ projectId: project.id, question: { canned }, scope: { sessionIds: few } }, T);
      expect(part.citations.map((c) => c.spanId)).toEqual(
        whole.citations.filter((c) => few.includes(c.sessionId)).map((c) => c.spanId),
      );
    }
  }, 60_000);
});

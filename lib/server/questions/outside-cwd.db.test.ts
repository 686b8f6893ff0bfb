/**
 * "Did we write outside the session's working directory?" leaves the writes inside it to SQL
 * (candidates.ts, outsideCwdSql), so a project's many writes inside its folders are never judged
 * one by one. The SQL must leave out exactly what the engine's matchAtom finds NO_MATCH: a value
 * that is not an absolute path, or one under the cwd as isPathUnder reads it (a trailing slash
 * ignored, "/" holding every path, a sibling such as /srv/app2 outside /srv/app); a session whose
 * cwd is unknown cannot be decided either way.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { appendSpans, upsertSession, type SpanSubmission } from "@/lib/server/ingest/append";
import { askEvidenceQuestion } from "./ask";

const T = new Date("2026-03-01T00:00:00.000Z");
const PATHS = ["/srv/app", "/srv/app/src/x.ts", "/srv/app2/y.ts", "/srv", "rel/z.ts", "/dev/null"];

function write(seq: number, path: string): SpanSubmission {
  const input = { file_path: path, content: "x" };
  return {
    seq,
    kind: "TOOL_CALL",
    toolName: "Write",
    toolInput: input,
    occurredAt: new Date(T.getTime() + seq * 60_000),
    body: new TextEncoder().encode(JSON.stringify(input)),
  };
}

async function ask(cwd: string | null, options: { rowsAtOnce?: number; batchSpans?: number } = {}) {
  const project = await makeTestProject("outsidecwd");
  const { session } = await upsertSession(project.id, { externalId: `cwd-${randomUUID()}`, runtime: "claude-code", cwd });
  await appendSpans(
    project.id,
    session.id,
    PATHS.map((p, i) => write(i, p)),
  );
  return askEvidenceQuestion({ projectId: project.id, question: { canned: "wrote-outside-cwd" } }, T, options);
}

const cited = (answer: Awaited<ReturnType<typeof ask>>) => [...new Set(answer.citations.map((c) => c.excerpt))].sort();

describe("writes outside the working directory, found in SQL", () => {
  for (const cwd of ["/srv/app", "/srv/app/"]) {
    it(`cites only the writes outside ${cwd} (a sibling folder and a parent), at once and through cursors`, async () => {
      for (const options of [{}, { rowsAtOnce: 1, batchSpans: 1 }]) {
        const answer = await ask(cwd, options);
        expect(answer.answer).toBe("YES");
        expect(cited(answer)).toEqual(["/srv", "/srv/app2/y.ts"]);
        expect(answer.blockerCount).toBe(0);
      }
    });
  }

  it("finds nothing outside / and answers NO", async () => {
    const answer = await ask("/");
    expect(answer.answer).toBe("NO");
    expect(answer.citationCount).toBe(0);
  });

  it("cannot decide where the cwd is unknown: every absolute write but a device blocks", async () => {
    const answer = await ask(null);
    expect(answer.answer).toBe("INSUFFICIENT_EVIDENCE");
    // /srv/app, /srv/app/src/x.ts, /srv/app2/y.ts and /srv; not rel/z.ts, not /dev/null.
    expect(answer.blockerCount).toBe(4);
  });
});

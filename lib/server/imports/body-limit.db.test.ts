/**
 * The one cap on a span's body through the stored path: a transcript with a record over it imports
 * everything else, names the record in its report, stores none of it, and leaves its session
 * unable to answer NO; ingest itself refuses a larger body whatever path brings it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_RECORD_BYTES, MAX_SPAN_BODY_BYTES, OVER_LIMIT } from "@/lib/core/limits";
import { rawQuery } from "@/lib/db/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { appendSpans, upsertSession } from "@/lib/server/ingest";
import { askEvidenceQuestion } from "@/lib/server/questions/ask";
import { fileSource } from "./file-source";
import { importTranscriptFile } from "./import-file";

const SESSION = "d6e0bada-1959-4eec-a9d2-0bfade768d8f";
const whole = readFileSync(path.resolve("lib/importers/fixtures/claude-code/spotter-tool-heavy.jsonl"));
const dir = mkdtempSync(path.join(tmpdir(), "custodian-body-limit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The real session with a user record of `size` bytes of text after it, spooled as an upload is. */
function spooledWithRecord(size: number) {
  const head = `{"type":"user","sessionId":"${SESSION}","uuid":"large-1","timestamp":"2099-01-01T09:00:00.000Z","message":{"role":"user","content":"`;
  const record = Buffer.alloc(head.length + size + 4, "x");
  record.write(head, 0);
  record.write('"}}\n', head.length + size);
  const file = path.join(dir, `upload-${size}`);
  writeFileSync(file, Buffer.concat([whole, record]));
  const line = whole.filter((b) => b === 0x0a).length + 1;
  return { source: fileSource(file, whole.length + record.length), line };
}

describe("an import with a record over the cap", () => {
  it.each([
    ["a span body over the span cap", MAX_SPAN_BODY_BYTES + 1, `-byte limit on one span`],
    ["a record over the record limit", MAX_RECORD_BYTES + 1, `-byte limit on one record`],
  ])("%s: skipped and named, nothing of it stored, and no NO over its session", async (_name, size, limit) => {
    const project = await makeTestProject(`body-limit-${size}`);
    const { source, line } = spooledWithRecord(size);
    const outcome = await importTranscriptFile(project.id, source, { requester: "test" });

    expect(outcome.records.read).toBe(outcome.records.used + outcome.records.ignored + outcome.records.skipped);
    expect(outcome.records.skipped).toBe(1);
    expect(outcome.issues.filter((i) => i.message.startsWith(OVER_LIMIT))).toEqual([
      { line, message: expect.stringContaining(limit) },
    ]);
    expect(outcome.sessions).toEqual([expect.objectContaining({ externalId: SESSION, skippedRecords: 1 })]);
    const [largest] = await rawQuery<{ max: number }>(
      "select max(s.byte_length) as max from span s join session x on x.id = s.session_id where x.project_id = $1",
      [project.id],
    );
    expect(largest!.max).toBeLessThan(MAX_SPAN_BODY_BYTES);

    // Without the record this session answers NO (lib/server/imports/completeness.db.test.ts).
    const answer = await askEvidenceQuestion({ projectId: project.id, question: { canned: "deleted-files" } });
    expect(answer.answer).toBe("INSUFFICIENT_EVIDENCE");
    expect(answer.skippedRecords).toEqual([expect.objectContaining({ line, reason: expect.stringMatching(`^${OVER_LIMIT}`) })]);
  });
});

describe("ingest holds the cap whatever the path", () => {
  it("a body over it is refused with PAYLOAD_TOO_LARGE naming the field, and nothing of the batch is written", async () => {
    const project = await makeTestProject("body-limit-ingest");
    const { session } = await upsertSession(project.id, { externalId: "large", runtime: "claude-code" });
    const span = (seq: number, size: number) => ({
      seq,
      kind: "MESSAGE" as const,
      occurredAt: new Date("2026-01-01T00:00:00Z"),
      body: new Uint8Array(size).fill(0x61),
    });
    await expect(appendSpans(project.id, session.id, [span(0, 10), span(1, MAX_SPAN_BODY_BYTES + 1)])).rejects.toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      fields: [{ path: "spans.1.body", message: `${MAX_SPAN_BODY_BYTES + 1} bytes; the limit is ${MAX_SPAN_BODY_BYTES}` }],
    });
    const [count] = await rawQuery<{ n: number }>("select count(*)::int as n from span where session_id = $1", [session.id]);
    expect(count!.n).toBe(0);
    await expect(appendSpans(project.id, session.id, [span(0, MAX_SPAN_BODY_BYTES)])).resolves.toHaveLength(1);
  });
});

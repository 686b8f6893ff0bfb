import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { POST as importRoute } from "@/app/api/v1/imports/route";
import { GET as importJobRoute } from "@/app/api/v1/imports/[id]/route";
import { LIMITS } from "@/lib/api/schemas";
import { db } from "@/lib/db/client";
import { importTranscript } from "@/lib/importers";
import type { ImportFormat } from "@/lib/importers/shared/types";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { TEST_ACTOR } from "@/lib/server/admin/test-project";
import { askEvidenceQuestion } from "@/lib/server/questions/ask";
import { importTranscriptFile } from "./import-file";
import { decodeStoredToolInput } from "@/lib/server/ingest";
import { makeTestProject } from "@/lib/server/admin/test-project";

const FIXTURES = path.resolve("lib/importers/fixtures");
const FILES: Array<[string, ImportFormat]> = [
  ["claude-code-session.jsonl", "claude-code"],
  ["codex/rollout-sample.jsonl", "codex"],
  ["openhands/handwritten-events.jsonl", "openhands"],
  ["otel-genai/hand-traces.json", "otel-genai"],
];

const fixture = (name: string) => new Uint8Array(readFileSync(path.join(FIXTURES, name)));

describe("importing transcripts", () => {
  it.each(FILES)("%s goes through the shared ingest, and importing it again changes nothing", async (file, format) => {
    const project = await makeTestProject(`import-${format}`);
    const bytes = fixture(file);
    const parsed = importTranscript(bytes, format);
    const first = await importTranscriptFile(project.id, bytes, { requester: "test" });
    expect(first.format).toBe(format);
    expect(first.spans).toBe(parsed.sessions.reduce((n, s) => n + s.spans.length, 0));
    expect(first.issues).toEqual(parsed.issues);
    const sessionIds = first.sessions.map((s) => s.id);
    const stored = await db().span.count({ where: { sessionId: { in: sessionIds } } });
    const links = await db().summaryLink.count({ where: { sessionId: { in: sessionIds } } });

    const again = await importTranscriptFile(project.id, bytes, { requester: "test" });
    expect(again.sessions.every((s) => !s.created)).toBe(true);
    expect(await db().span.count({ where: { sessionId: { in: sessionIds } } })).toBe(stored);
    expect(await db().summaryLink.count({ where: { sessionId: { in: sessionIds } } })).toBe(links);
  });

  it("keeps a tool call whose input holds a NUL character, its input stored exactly", async () => {
    const project = await makeTestProject("import-nul");
    const lines = new TextDecoder().decode(fixture("claude-code-session.jsonl")).split("\n");
    const at = lines.findIndex((l) => l.includes('"tool_use"'));
    const record = JSON.parse(lines[at]!);
    const use = record.message.content.find((c: { type: string }) => c.type === "tool_use");
    const [field] = Object.keys(use.input);
    use.input[field!] = `${use.input[field!]}\u0000`;
    lines[at] = JSON.stringify(record);
    const bytes = new TextEncoder().encode(lines.join("\n"));
    const parsed = importTranscript(bytes, "claude-code");

    const outcome = await importTranscriptFile(project.id, bytes, { requester: "test" });
    expect(outcome.spans).toBe(parsed.sessions.reduce((n, s) => n + s.spans.length, 0));
    expect(outcome.issues.filter((i) => i.line === at + 1)).toEqual([]);
    const spans = await db().span.findMany({ where: { sessionId: outcome.sessions[0]!.id, toolName: use.name } });
    const span = spans.find((s) => JSON.stringify(decodeStoredToolInput(s.toolInput)) === JSON.stringify(use.input))!;
    expect(span).toBeDefined();
    const original = await db().spanOriginal.findUniqueOrThrow({
      where: { sessionId_spanId: { sessionId: span.sessionId, spanId: span.id } },
    });
    expect(new TextDecoder().decode(original.bytes!)).toContain("\\u0000");
  });

  it("records a compaction whose replaced spans are in the file as an observed reclamation with pointers", async () => {
    const project = await makeTestProject("import-compaction");
    const bytes = fixture("claude-code-session.jsonl");
    const parsed = importTranscript(bytes, "claude-code");
    const withReplaced = parsed.sessions.flatMap((s) => s.compactions).filter((c) => c.replacedSeqs.length > 0);
    expect(withReplaced.length).toBeGreaterThan(0);
    const outcome = await importTranscriptFile(project.id, bytes, { requester: "test" });
    const sessionIds = outcome.sessions.map((s) => s.id);
    const links = await db().summaryLink.findMany({ where: { sessionId: { in: sessionIds } } });
    expect(links.length).toBe(withReplaced.reduce((n, c) => n + c.replacedSeqs.length, 0));
    expect(links.every((l) => l.pointerSha256 !== null)).toBe(true);
    const replaced = await db().span.findMany({
      where: { sessionId: { in: sessionIds }, id: { in: links.map((l) => l.replacedSpanId) } },
    });
    expect(replaced.every((s) => s.transcriptState === "RECLAIMED" || s.transcriptState === "RECLAIMED_HONEST")).toBe(true);
  });

  it("answers an evidence question over sessions imported from each format", async () => {
    const project = await makeTestProject("import-question");
    for (const [file] of FILES) await importTranscriptFile(project.id, fixture(file), { requester: "test" });
    const answer = await askEvidenceQuestion({ projectId: project.id, question: { canned: "modified-system-config" } });
    // Every fixture writes under /etc or runs a system package manager, and the originals are held.
    expect(answer.answer).toBe("YES");
    const sessionsCited = new Set(answer.citations.map((c) => c.sessionId));
    expect(sessionsCited.size).toBeGreaterThanOrEqual(FILES.length);
    for (const citation of answer.citations) expect(new TextDecoder().decode(citation.bytes)).toBe(citation.excerpt);
  });

  it("an unsupported file is a 415 naming the supported formats; a forced format finding nothing is a 422; a large file runs as a job with progress", async () => {
    const project = await makeTestProject("import-api");
    const key = (await createApiKey(project.id, "importer", "OPERATOR", TEST_ACTOR)).key;
    const headers = { authorization: `Bearer ${key}` };
    const garbage = await importRoute(
      new Request("http://t/api/v1/imports", { method: "POST", headers, body: "not a transcript" }),
      {
        params: Promise.resolve({}),
      },
    );
    expect(garbage.status).toBe(415);
    const refused = (await garbage.json()).error;
    expect(refused.code).toBe("UNSUPPORTED_FORMAT");
    expect(refused.message).toMatch(/text beginning "not a transcript".*claude-code, codex, openhands/);
    expect(refused.fields[0].path).toBe("format");

    const forced = await importRoute(
      new Request("http://t/api/v1/imports?format=codex", { method: "POST", headers, body: '{"hello":"world"}\n' }),
      { params: Promise.resolve({}) },
    );
    expect(forced.status).toBe(422);
    expect((await forced.json()).error.code).toBe("NO_SESSIONS_FOUND");

    // A file over the synchronous limit becomes a job; the limit is lowered so the test stays small.
    const file = fixture("codex/rollout-sample.jsonl");
    process.env.CUSTODIAN_SYNC_IMPORT_BYTES = String(file.byteLength - 1);
    let big: Response;
    try {
      big = await importRoute(new Request("http://t/api/v1/imports?format=codex", { method: "POST", headers, body: file }), {
        params: Promise.resolve({}),
      });
    } finally {
      delete process.env.CUSTODIAN_SYNC_IMPORT_BYTES;
    }
    expect(big.status).toBe(202);
    expect(LIMITS.syncImportBytes).toBeGreaterThan(file.byteLength);
    const { job } = (await big.json()) as { job: { id: string } };
    let status = "RUNNING";
    let body: { status: string; spansDone: number; spansTotal: number; outcome: { spans: number } | null } | undefined;
    for (let i = 0; i < 600 && status === "RUNNING"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const poll = await importJobRoute(new Request(`http://t/api/v1/imports/${job.id}`, { headers }), {
        params: Promise.resolve({ id: job.id }),
      });
      body = await poll.json();
      status = body!.status;
    }
    expect(status).toBe("DONE");
    expect(body!.outcome!.spans).toBeGreaterThan(0);
    expect(body!.spansDone).toBe(body!.spansTotal);
  });
});

/**
 * Large files are read on a worker thread: the importers are synchronous, and a whole-document
 * format parses its file in one call, which on the server's event loop stalled every other
 * request (health included) for as long as the parse took. The loop's longest pause during such
 * an import is compared with the parse's own time, measured side by side, so the test holds on a
 * busy machine as on a quiet one.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/core/errors";
import { importTranscript, TranscriptImportError } from "@/lib/importers";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { fileSource } from "./file-source";
import { importTranscriptFile } from "./import-file";
import { chainedChatRequest } from "@/lib/fuzz/hostile-otlp";
import { parseOtlpRequest } from "@/lib/importers/otel-genai";
import { IN_THREAD_PARSE_BYTES, importWindowsOffThread, parseOtlpOffThread } from "./parse-off-thread";

const dir = mkdtempSync(path.join(tmpdir(), "custodian-off-thread-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A real Gemini CLI session (one JSON document), its messages repeated until it is `bytes` long. */
function largeGeminiSession(bytes: number): Uint8Array {
  const real = JSON.parse(
    readFileSync(path.resolve("lib/importers/fixtures/gemini-cli/codemie-session-2026-01-16-file-ops.json"), "utf8"),
  ) as { messages: Array<Record<string, unknown>> };
  const each = JSON.stringify(real.messages).length;
  const messages: Array<Record<string, unknown>> = [];
  for (let round = 0; round * each < bytes; round++)
    for (const message of real.messages) messages.push({ ...message, id: `${String(message.id)}-${round}` });
  return new TextEncoder().encode(JSON.stringify({ ...real, messages }));
}

/** The longest the event loop went without turning, from now until the returned stop is called. */
function watchTheLoop(): () => number {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 2);
  return () => {
    clearInterval(timer);
    return Math.max(longest, performance.now() - last);
  };
}

const collect = async <T, R>(windows: AsyncGenerator<T, R>) => {
  const taken: T[] = [];
  for (;;) {
    const step = await windows.next();
    if (step.done) return { windows: taken, end: step.value };
    taken.push(step.value);
  }
};

describe("a large import is read off the event loop", () => {
  const bytes = largeGeminiSession(3 * 1024 * 1024);

  it("keeps the loop turning while a whole-document file is parsed, and imports all of it", async () => {
    const started = performance.now();
    const inThread = importTranscript(bytes, "gemini-cli");
    const parseMs = performance.now() - started;
    const spans = inThread.sessions[0]!.spans.length;
    const project = await makeTestProject("off-thread-loop");

    const stop = watchTheLoop();
    const outcome = await importTranscriptFile(project.id, bytes, { requester: "off-thread test" });
    const longestPause = stop();

    expect(outcome.spans).toBe(spans);
    expect(outcome.records).toEqual(inThread.records);
    // Read in the request's thread, the loop stood still for at least the whole parse.
    expect(longestPause).toBeLessThan(parseMs / 2);
  }, 120_000);

  it("gives the same windows off the thread as in it, from bytes and from a spooled file", async () => {
    const file = path.join(dir, "session.json");
    writeFileSync(file, bytes);
    const expected = importTranscript(bytes);
    for (const input of [bytes, fileSource(file, bytes.byteLength)]) {
      const { windows, end } = await collect(importWindowsOffThread(input, undefined, 2_000));
      const spans = windows.flatMap((w) => w.sessions.flatMap((s) => s.spans));
      expect(spans.length).toBe(expected.sessions[0]!.spans.length);
      expect(spans.at(-1)).toEqual(expected.sessions[0]!.spans.at(-1));
      expect(end.records).toEqual(expected.records);
    }
  }, 120_000);

  it("keeps the importer's own errors across the thread", async () => {
    const text = new TextEncoder().encode("not a transcript\n".repeat((IN_THREAD_PARSE_BYTES * 2) / 17));
    await expect(collect(importWindowsOffThread(text, undefined, 2_000))).rejects.toSatisfy(
      (error) => error instanceof TranscriptImportError && error.code === "UNSUPPORTED_FORMAT",
    );
    await expect(collect(importWindowsOffThread(bytes, "codex", 2_000))).rejects.toSatisfy(
      (error) => error instanceof TranscriptImportError && error.code === "NO_SESSIONS_FOUND",
    );
  });

  it("fails a file that needs more memory than the parser may take with 413, and the server goes on", async () => {
    // Below about 64 MiB V8 may end the whole process rather than the thread: the test stays above.
    const large = largeGeminiSession(24 * 1024 * 1024);
    await expect(collect(importWindowsOffThread(large, undefined, 2_000, 64))).rejects.toSatisfy(
      (error) => error instanceof AppError && error.code === "PAYLOAD_TOO_LARGE",
    );
    const small = await collect(importWindowsOffThread(largeGeminiSession(IN_THREAD_PARSE_BYTES * 2), undefined, 2_000));
    expect(small.end.sessions).toHaveLength(1);
  }, 120_000);
});

describe("a large OTLP conversation is mapped off the event loop", () => {
  it("keeps the loop turning while 10,000 chained chat spans are mapped, and maps them as in the thread", async () => {
    const request = JSON.parse(new TextDecoder().decode(chainedChatRequest("offthread00000000000000000000001", 10_000)));
    const started = performance.now();
    const inThread = parseOtlpRequest(request);
    const parseMs = performance.now() - started;

    const stop = watchTheLoop();
    const offThread = await parseOtlpOffThread(request);
    const longestPause = stop();

    expect(offThread.sessions).toHaveLength(1);
    expect(offThread.sessions[0]!.spans).toHaveLength(inThread.sessions[0]!.spans.length);
    expect(offThread.sessions[0]!.spans.at(-1)).toEqual(inThread.sessions[0]!.spans.at(-1));
    expect(offThread.issues).toEqual(inThread.issues);
    expect(offThread.records).toEqual(inThread.records);
    // Mapped in the request's thread, the loop stood still for at least the whole mapping.
    expect(longestPause).toBeLessThan(parseMs / 2);
  }, 120_000);
});

/**
 * The importers' windows, read on a worker thread for any file larger than a small request, and a
 * large OTLP conversation's mapping likewise: the importers are synchronous (a whole-document format
 * parses its file in one call), so reading a large file on the server's event loop would stall
 * every other request until it finished.
 * The worker also bounds the memory one file may take: a file that needs more fails alone, with a
 * clear error, rather than taking the server down.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { AppError } from "@/lib/core/errors";
import { BUNDLE_SOURCES, bundlePath, projectRoot } from "@/lib/core/project-root";
import {
  IMPORTERS,
  type ImportEnd,
  type ImportFormat,
  type ImportResult,
  type ImportWindow,
  importWindows,
  type TranscriptBytes,
  TranscriptImportError,
  wholeBytes,
} from "@/lib/importers";
import { parseOtlpRequest } from "@/lib/importers/otel-genai";
import { assembleWindows } from "@/lib/importers/shared/windows";
import { isFileSource } from "./file-source";
import { MORE, type ParseFailure, type ParseJob, type ParseReply } from "./parse-protocol";

/**
 * Files up to this size are read in the request's own thread: a few milliseconds of parsing, less
 * than starting a worker. Documented in docs/operations.md ("Limits").
 */
export const IN_THREAD_PARSE_BYTES = 256 * 1024;

/**
 * The heap one import's parser may take (a whole-document file of the import limit, 256 MiB, needs
 * about 2 GiB as parsed JSON). Past it the import fails with 413 and the server goes on.
 */
export const PARSER_HEAP_MIB = 3072;

export type AsyncImportWindows = AsyncGenerator<ImportWindow, ImportEnd, undefined>;

/** importWindows (lib/importers), off the event loop for a file over IN_THREAD_PARSE_BYTES. */
export async function* importWindowsOffThread(
  input: TranscriptBytes,
  format: ImportFormat | undefined,
  windowSpans: number,
  heapMiB = PARSER_HEAP_MIB,
): AsyncImportWindows {
  if (input.byteLength <= IN_THREAD_PARSE_BYTES) return yield* importWindows(input, format, windowSpans);
  const job: ParseJob = {
    kind: "file",
    input: isFileSource(input) ? input.spooled : { bytes: wholeBytes(input) },
    format,
    windowSpans,
  };
  const worker = startParser(job, heapMiB);
  const nextReply = repliesOf(worker);
  try {
    for (;;) {
      const reply = await nextReply();
      if (reply.type === "end") return reply.end;
      if (reply.type === "error") throw revive(reply.error, heapMiB);
      if (reply.type !== "window") throw new Error(`Import parser: unexpected ${reply.type} reply`);
      worker.postMessage(MORE);
      yield reply.window;
    }
  } finally {
    await worker.terminate();
  }
}

/**
 * OTLP conversations of more spans than this are mapped on the worker thread (a 10,000-span
 * conversation takes the GenAI mapping about half a second); fewer, as most batches an exporter
 * sends (512 spans by default), in the request's own thread, where they cost less than a worker's start.
 */
export const IN_THREAD_OTLP_SPANS = 1000;

/** parseOtlpRequest (lib/importers/otel-genai), off the event loop for more than IN_THREAD_OTLP_SPANS spans. */
export async function parseOtlpOffThread(
  request: { resourceSpans: Array<{ scopeSpans: Array<{ spans: unknown[] }> }> },
  heapMiB = PARSER_HEAP_MIB,
): Promise<ImportResult> {
  const spans = request.resourceSpans.reduce((n, r) => n + r.scopeSpans.reduce((m, s) => m + s.spans.length, 0), 0);
  if (spans <= IN_THREAD_OTLP_SPANS) return parseOtlpRequest(request);
  const worker = startParser({ kind: "otlp", request: new TextEncoder().encode(JSON.stringify(request)) }, heapMiB);
  try {
    const reply = await repliesOf(worker)();
    if (reply.type === "otlp") return reply.result;
    throw reply.type === "error" ? revive(reply.error, heapMiB) : new Error(`Import parser: unexpected ${reply.type} reply`);
  } finally {
    await worker.terminate();
  }
}

/**
 * The built server runs the worker's bundle (plain JavaScript, built with the hooks'); anything
 * started through tsx (tests, the CLI, `npm run dev`) runs its TypeScript source, so it is never
 * an older build of the importers.
 */
function startParser(job: ParseJob, heapMiB: number): Worker {
  const options = { workerData: job, resourceLimits: { maxOldGenerationSizeMb: heapMiB } };
  const bundle = bundlePath("import-worker");
  if (process.env.NODE_ENV === "production" && existsSync(bundle)) return new Worker(bundle, options);
  const source = pathToFileURL(join(projectRoot(), BUNDLE_SOURCES["import-worker"])).href;
  return new Worker(`import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(source)}); })`, {
    ...options,
    eval: true,
  });
}

/** The worker's replies in order; its crash or early exit is a reply too, so no read waits forever. */
function repliesOf(worker: Worker): () => Promise<ParseReply> {
  const ready: ParseReply[] = [];
  let waiting: ((reply: ParseReply) => void) | null = null;
  const deliver = (reply: ParseReply) => {
    const take = waiting;
    waiting = null;
    if (take) take(reply);
    else ready.push(reply);
  };
  worker.on("message", deliver);
  worker.on("error", (error: Error & { code?: string }) =>
    deliver({ type: "error", error: { name: error.name, message: error.message, code: error.code } }),
  );
  worker.on("exit", (code) =>
    deliver({ type: "error", error: { name: "Error", message: `the import parser stopped early (exit code ${code})` } }),
  );
  return () => {
    const reply = ready.shift();
    return reply ? Promise.resolve(reply) : new Promise((resolve) => (waiting = resolve));
  };
}

/** The error the importer threw, as its own class again (the caller maps importer codes to the API's). */
function revive(failure: ParseFailure, heapMiB: number): Error {
  if (failure.name === "TranscriptImportError")
    return new TranscriptImportError(failure.code as TranscriptImportError["code"], failure.message);
  if (failure.code === "ERR_WORKER_OUT_OF_MEMORY")
    return new AppError(
      "PAYLOAD_TOO_LARGE",
      `Reading this file needs more than ${heapMiB} MiB of memory; split it or import it in parts`,
      { details: { parserHeapMiB: heapMiB } },
    );
  return Object.assign(new Error(`Import parser: ${failure.message}`), { name: failure.name });
}

/**
 * A whole read of one format's file as its importer's parse gives it (windows put back together),
 * off the event loop past IN_THREAD_PARSE_BYTES: what a server-side incremental capture parses.
 * A read that holds no session yet (only bookkeeping records so far) is no error here.
 */
export async function parseTranscriptOffThread(bytes: Uint8Array, format: ImportFormat): Promise<Pick<ImportResult, "sessions">> {
  if (bytes.byteLength <= IN_THREAD_PARSE_BYTES) return IMPORTERS[format].parse(bytes);
  const windows: ImportWindow[] = [];
  try {
    const reading = importWindowsOffThread(bytes, format, WHOLE_READ_WINDOW_SPANS);
    for (let next = await reading.next(); ; next = await reading.next()) {
      if (next.done) return assembleWindows(windows, next.value);
      windows.push(next.value);
    }
  } catch (error) {
    if (error instanceof TranscriptImportError && error.code === "NO_SESSIONS_FOUND") return { sessions: [] };
    throw error;
  }
}

/** Spans a window of a whole read carries: the worker's windows are gathered here anyway. */
const WHOLE_READ_WINDOW_SPANS = 2_000;

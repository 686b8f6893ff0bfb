/**
 * The import parser's worker thread: runs the (pure, synchronous) importers over one transcript and
 * posts their windows back, at most READ_AHEAD ahead of what the server has taken; or maps one
 * batch of OTLP conversations and posts the mapping. A whole-document format parses its file in one
 * synchronous call; here that call blocks this thread, never the server's event loop. Built into a
 * plain-JavaScript bundle beside the hooks' (npm run build:hook).
 */
import { parentPort, workerData } from "node:worker_threads";
import { importWindows, TranscriptImportError } from "@/lib/importers";
import { parseOtlpRequest } from "@/lib/importers/otel-genai";
import { fileSource } from "./file-source";
import {
  type FileJob,
  MORE,
  type OtlpJob,
  type ParseFailure,
  type ParseJob,
  type ParseReply,
  READ_AHEAD,
} from "./parse-protocol";

const port = parentPort!;
const job = workerData as ParseJob;

function failure(error: unknown): ParseFailure {
  if (error instanceof TranscriptImportError) return { name: error.name, message: error.message, code: error.code };
  return error instanceof Error ? { name: error.name, message: error.message } : { name: "Error", message: String(error) };
}

function mapOtlp({ request }: OtlpJob): void {
  let reply: ParseReply;
  try {
    reply = { type: "otlp", result: parseOtlpRequest(JSON.parse(new TextDecoder().decode(request))) };
  } catch (error) {
    reply = { type: "error", error: failure(error) };
  }
  port.postMessage(reply);
  port.unref();
}

function readFile(file: FileJob): void {
  const source = "bytes" in file.input ? file.input.bytes : fileSource(file.input.file, file.input.byteLength);
  const windows = importWindows(source, file.format, file.windowSpans);
  let credit = READ_AHEAD;
  let finished = false;

  function pump(): void {
    while (credit > 0 && !finished) {
      credit -= 1;
      let reply: ParseReply;
      try {
        const step = windows.next();
        finished = step.done === true;
        reply = step.done ? { type: "end", end: step.value } : { type: "window", window: step.value };
      } catch (error) {
        finished = true;
        reply = { type: "error", error: failure(error) };
      }
      port.postMessage(reply);
    }
    // Done: nothing more to wait for, so the thread ends once its last reply is on its way.
    if (finished) port.unref();
  }

  port.on("message", (message: unknown) => {
    if (message !== MORE) return;
    credit += 1;
    pump();
  });
  pump();
}

if (job.kind === "otlp") mapOtlp(job);
else readFile(job);

/**
 * The import parser's worker thread: runs the (pure, synchronous) importers over one transcript and
 * posts their windows back, at most READ_AHEAD ahead of what the server has taken. A whole-document
 * format parses its file in one synchronous call; here that call blocks this thread, never the
 * server's event loop. Built into a plain-JavaScript bundle beside the hooks' (npm run build:hook).
 */
import { parentPort, workerData } from "node:worker_threads";
import { importWindows, TranscriptImportError } from "@/lib/importers";
import { fileSource } from "./file-source";
import { MORE, type ParseFailure, type ParseJob, type ParseReply, READ_AHEAD } from "./parse-protocol";

const port = parentPort!;
const job = workerData as ParseJob;
const source = "bytes" in job.input ? job.input.bytes : fileSource(job.input.file, job.input.byteLength);
const windows = importWindows(source, job.format, job.windowSpans);
let credit = READ_AHEAD;
let finished = false;

function failure(error: unknown): ParseFailure {
  if (error instanceof TranscriptImportError) return { name: error.name, message: error.message, code: error.code };
  return error instanceof Error ? { name: error.name, message: error.message } : { name: "Error", message: String(error) };
}

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

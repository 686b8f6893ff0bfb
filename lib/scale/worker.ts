/**
 * The seed's second thread: generates and analyses sessions chunk by chunk, on request, while the
 * main thread streams earlier chunks into Postgres.
 */
import { parentPort } from "node:worker_threads";
import { buildSession, type BuildContext, type BuiltChunk } from "./build";
import type { SessionPlan } from "./plan";

export type WorkerRequest = { type: "init"; plans: SessionPlan[]; ctx: BuildContext } | { type: "next" };
export type WorkerReply = { type: "chunk"; chunk: BuiltChunk } | { type: "done" };

function* everything(plans: SessionPlan[], ctx: BuildContext): Generator<BuiltChunk> {
  for (const plan of plans) yield* buildSession(plan, ctx);
}

let chunks: Generator<BuiltChunk> | null = null;
const port = parentPort!;
port.on("message", (message: WorkerRequest) => {
  if (message.type === "init") {
    chunks = everything(message.plans, message.ctx);
    return;
  }
  const next = chunks!.next();
  port.postMessage((next.done ? { type: "done" } : { type: "chunk", chunk: next.value }) satisfies WorkerReply);
});

/**
 * Claude Code's HTTP hooks (`type: "http"`): the event's JSON arrives as the POST body, and the
 * answer follows Claude Code's rules for HTTP hooks: a 2xx with an empty body is "go on"; a 2xx with
 * JSON is read as a command hook's output (`decision: "block"` stops a compaction, `systemMessage`
 * warns the user); any other status, a refused connection or a timeout is a non-blocking error.
 *
 * The hooks fail open: a failure is a warning and the agent goes on. Only a PreCompact hook whose
 * URL asks for it (`?failClosed=1`) blocks the compaction instead, as `CUSTODIAN_FAIL_CLOSED=1` does
 * for the process hook. Only PreCompact waits for the capture (its answer is the gate's); Stop,
 * SubagentStop, SessionEnd and PostCompact are answered at once and captured after the response.
 */
import { z } from "zod";
import { env } from "@/lib/core/env";
import { AppError } from "@/lib/core/errors";
import { MAX_SPAN_BODY_BYTES } from "@/lib/core/limits";
import type { SyncAnswer } from "@/lib/importers/incremental";
import {
  allowedTranscriptPath,
  captureHookEvent,
  HTTP_HOOK_EVENTS,
  type HttpHookInput,
  hookSyncRequest,
  type SendBatch,
} from "@/lib/server/capture";
import { syncHookTranscript } from "@/lib/server/integrations";
import type { ApiCaller } from "./auth";
import { HookSyncSchema, hookSyncInput } from "./hook-sync-schema";

const optionalText = (max: number) => z.string().max(max).nullish();

/** The fields relied on; Claude Code sends more (cwd, permission_mode, trigger...), which are ignored. */
export const ClaudeCodeHookSchema = z.looseObject({
  hook_event_name: z.enum(HTTP_HOOK_EVENTS, { error: `one of ${HTTP_HOOK_EVENTS.join(", ")}` }),
  session_id: z.string().min(1).max(500),
  transcript_path: optionalText(4096),
  agent_transcript_path: optionalText(4096),
  agent_id: optionalText(500),
  agent_type: optionalText(500),
  compact_summary: optionalText(MAX_SPAN_BODY_BYTES),
});
export type ClaudeCodeHookBody = z.output<typeof ClaudeCodeHookSchema>;

export const ClaudeCodeHookQuerySchema = z.object({
  failClosed: z.enum(["0", "1"], { error: "0 or 1" }).optional(),
});

const given = (value: string | null | undefined) => (value ? value : undefined);

function hookInput(body: ClaudeCodeHookBody): HttpHookInput {
  return {
    event: body.hook_event_name,
    sessionId: body.session_id,
    transcriptPath: given(body.transcript_path),
    agentTranscriptPath: given(body.agent_transcript_path),
    agentId: given(body.agent_id),
    agentType: given(body.agent_type),
    compactSummary: given(body.compact_summary),
  };
}

/** A batch through the same schema and use case as a process hook's POST to /api/v1/hooks/sync. */
const sendAs =
  (caller: ApiCaller): SendBatch =>
  async (body) =>
    (await syncHookTranscript(caller.projectId, hookSyncInput(HookSyncSchema.parse(body)), caller.label)) as SyncAnswer;

const goOn = () => new Response(null, { status: 204 });
const json = (body: unknown) => Response.json(body, { headers: { "Cache-Control": "no-store" } });

/** The failure as Claude Code shows it: a warning and "go on", or, fail-closed before compaction, a block. */
function failure(reason: string, blocks: boolean): Response {
  const line = reason.replace(/\s+/g, " ").trim();
  if (blocks) return json({ decision: "block", reason: `Custodian blocked compaction: ${line}` });
  return json({ systemMessage: `custodian: ${line} (the session continues: fail-open)` });
}

const reasonOf = (error: unknown) =>
  error instanceof AppError ? error.message : "the capture failed on the server (see its log)";

function refusal(answer: SyncAnswer | null): string | undefined {
  const gate = answer?.gate;
  if (!gate || gate.refusedCount === 0) return undefined;
  const first = gate.refused[0];
  return (
    `${gate.refusedCount} span${gate.refusedCount === 1 ? "" : "s"} the compaction may drop ${gate.refusedCount === 1 ? "has" : "have"} no durable original` +
    (first ? ` (e.g. span ${first.spanId}${first.seq !== null ? `, seq ${first.seq}` : ""}: ${first.reason})` : "")
  );
}

/** PreCompact: the capture and the gate within the time limit, then allow, warn or block. */
async function preCompact(caller: ApiCaller, input: HttpHookInput, failClosed: boolean): Promise<Response> {
  const limit = env().CUSTODIAN_HOOK_TIMEOUT_MS;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<Response>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve(failure(`no answer within ${limit} ms`, failClosed));
    }, limit);
  });
  const captured = captureHookEvent(caller.projectId, input, sendAs(caller), controller.signal).then(
    (answer) => {
      const refused = refusal(answer);
      return refused ? failure(refused, failClosed) : goOn();
    },
    (error: unknown) => {
      if (!(error instanceof AppError)) console.error("HTTP hook capture failed", error);
      return failure(reasonOf(error), failClosed);
    },
  );
  try {
    return await Promise.race([captured, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Answers one HTTP hook. `later` runs work after the response is sent (Next.js `after`). A transcript
 * this server may not or cannot read is said at once, before anything is captured.
 */
export async function answerClaudeCodeHook(
  caller: ApiCaller,
  body: ClaudeCodeHookBody,
  options: { failClosed: boolean; later: (work: () => Promise<void>) => Promise<void> },
): Promise<Response> {
  const input = hookInput(body);
  if (input.event === "PreCompact") return preCompact(caller, input, options.failClosed);
  const request = hookSyncRequest(input);
  try {
    if (request?.transcriptPath) allowedTranscriptPath(request.transcriptPath);
  } catch (error) {
    return failure(reasonOf(error), false);
  }
  await options.later(async () => {
    await captureHookEvent(caller.projectId, input, sendAs(caller), new AbortController().signal).catch((error: unknown) =>
      console.error(`HTTP hook ${input.event} for session ${input.sessionId} could not be captured:`, reasonOf(error), error),
    );
  });
  return goOn();
}

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const MB = 1_000_000;
const FIXTURES = resolve("lib/importers/fixtures");

// --- Claude Code -------------------------------------------------------------------------------

const CLAUDE_FILES = ["spotter-subagent-progress.jsonl", "spotter-tool-heavy.jsonl", "spotter-agent-aac57f5.jsonl"];
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIMESTAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g;
const PROVIDER_ID = /\b(toolu|msg|req)_[A-Za-z0-9]{6,}/g;

const claudeLines = (file: string) =>
  readFileSync(join(FIXTURES, "claude-code", file), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");

/** The last 6 characters of an id become the repetition's number: same length, same alphabet. */
const varyId = (id: string, rep: number, radix: number) => id.slice(0, -6) + rep.toString(radix).padStart(6, "0").slice(-6);

function shiftTime(iso: string, offsetMs: number): string {
  return new Date(Date.parse(iso) + offsetMs).toISOString();
}

/**
 * One Claude Code session of about `targetBytes`: the real files' records, repetition after
 * repetition, in one session (a long session spawning many subagents).
 */
export function claudeCodeTranscript(targetBytes: number): string {
  const files = CLAUDE_FILES.map(claudeLines);
  const sessionIds = new Set(
    files
      .flat()
      .map((l) => (JSON.parse(l) as { sessionId?: string }).sessionId)
      .filter(Boolean),
  );
  const agentIds = [
    ...new Set(
      files
        .flat()
        .map((l) => (JSON.parse(l) as { agentId?: string }).agentId)
        .filter(Boolean),
    ),
  ];
  const session = "5b0c2f4e-9d1a-4c8e-b7f3-a1d2e3f4b5c6";
  const times = files
    .flat()
    .flatMap((l) => l.match(TIMESTAMP) ?? [])
    .map(Date.parse);
  const period = Math.max(...times) - Math.min(...times) + 60_000;
  const out: string[] = [];
  let bytes = 0;
  for (let rep = 0; bytes < targetBytes; rep++) {
    const project = `/projects/spotter-${rep}`;
    for (const lines of files) {
      for (const line of lines) {
        let varied = line
          .replace(UUID, (u) => (sessionIds.has(u) ? session : varyId(u, rep, 16)))
          .replace(PROVIDER_ID, (id) => varyId(id, rep, 36))
          .replace(TIMESTAMP, (t) => shiftTime(t, rep * period))
          .replaceAll("/projects/spotter", project);
        for (const agent of agentIds) varied = varied.replaceAll(agent as string, varyId(`x${agent}`, rep, 16).slice(1));
        out.push(varied);
        bytes += Buffer.byteLength(varied) + 1;
      }
    }
  }
  return `${out.join("\n")}\n`;
}

// --- Codex -------------------------------------------------------------------------------------

interface Content {
  prompts: string[];
  texts: string[];
  thinking: string[];
  commands: string[];
  outputs: string[];
  edits: Array<{ file_path: string; old_string: string; new_string: string }>;
}

/** The real commands, edits, outputs and texts of the Claude Code fixtures. */
function realContent(): Content {
  const c: Content = { prompts: [], texts: [], thinking: [], commands: [], outputs: [], edits: [] };
  const visit = (message: { role?: string; content?: unknown }) => {
    if (typeof message.content === "string") {
      if (message.role === "user" && !message.content.startsWith("<")) c.prompts.push(message.content);
      return;
    }
    if (!Array.isArray(message.content)) return;
    for (const block of message.content as Array<Record<string, unknown>>) {
      if (block.type === "text" && typeof block.text === "string")
        (message.role === "user" ? c.prompts : c.texts).push(block.text);
      if (block.type === "thinking" && typeof block.thinking === "string") c.thinking.push(block.thinking);
      if (block.type === "tool_use") {
        const input = block.input as Record<string, unknown>;
        if (typeof input.command === "string") c.commands.push(input.command);
        if (typeof input.old_string === "string") c.edits.push(input as Content["edits"][number]);
      }
      if (block.type === "tool_result") {
        const content = block.content;
        const text =
          typeof content === "string"
            ? content
            : Array.isArray(content)
              ? content.map((b: { text?: string }) => b.text ?? "").join("\n")
              : "";
        if (text) c.outputs.push(text);
      }
    }
  };
  for (const file of CLAUDE_FILES) {
    for (const line of claudeLines(file)) {
      const r = JSON.parse(line) as { message?: { role?: string }; data?: { message?: { message?: { role?: string } } } };
      if (r.message) visit(r.message);
      if (r.data?.message?.message) visit(r.data.message.message);
    }
  }
  return c;
}

/** The real rollout's records, by type, as templates. */
function codexTemplates() {
  const lines = readFileSync(join(FIXTURES, "codex", "real-exec-0.135.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as { timestamp: string; type: string; payload: Record<string, unknown> });
  const find = (type: string, payloadType?: string, role?: string) =>
    structuredClone(
      lines.find(
        (l) =>
          l.type === type &&
          (payloadType === undefined || l.payload.type === payloadType) &&
          (role === undefined || l.payload.role === role),
      )!,
    );
  return {
    meta: find("session_meta"),
    started: find("event_msg", "task_started"),
    context: find("turn_context"),
    developer: find("response_item", "message", "developer"),
    user: lines.filter((l) => l.type === "response_item" && l.payload.role === "user").at(-1)!,
    userEvent: find("event_msg", "user_message"),
    agentEvent: find("event_msg", "agent_message"),
    assistant: find("response_item", "message", "assistant"),
    tokens: find("event_msg", "token_count"),
    complete: find("event_msg", "task_complete"),
  };
}

/** A Codex rollout of about `targetBytes`: one session, turn after turn. */
export function codexTranscript(targetBytes: number): string {
  const t = codexTemplates();
  const c = realContent();
  const out: string[] = [];
  let bytes = 0;
  let clock = Date.parse(t.meta.timestamp);
  const cwd = "/home/dev/work/spotter";
  const emit = (type: string, payload: Record<string, unknown>) => {
    clock += 137;
    const line = JSON.stringify({ timestamp: new Date(clock).toISOString(), type, payload });
    out.push(line);
    bytes += Buffer.byteLength(line) + 1;
  };
  const pick = <T>(xs: T[], i: number): T => xs[i % xs.length]!;
  emit("session_meta", { ...t.meta.payload, cwd, timestamp: new Date(clock).toISOString() });
  emit("response_item", t.developer.payload);
  let call = 0;
  // Background processes' end events, by the turn they arrive in.
  const endsDue = new Map<number, Array<() => void>>();
  let currentTurn = 0;
  /**
   * A command through unified exec, as codex-tui 0.125 writes it (fixture codemie-tui-0.125): the
   * call answers "Process running with session ID N", a write_stdin poll answers the same, and the
   * end event of the first call follows; one in eight is a background process whose end arrives
   * two turns later.
   */
  const unifiedExec = (callId: string, command: string, output: string, exitCode: number, dir: string, n: number) => {
    const session = 10_000 + n;
    const running = (chunk: string) =>
      `Chunk ID: ${chunk}\nWall time: 1.0021 seconds\nProcess running with session ID ${session}\nOriginal token count: 0\nOutput:\n`;
    emit("response_item", {
      type: "function_call",
      name: "exec_command",
      arguments: JSON.stringify({ cmd: command, workdir: dir, yield_time_ms: 1000 }),
      call_id: callId,
    });
    emit("response_item", { type: "function_call_output", call_id: callId, output: running("a1") });
    const pollId = `${callId}_poll`;
    emit("response_item", {
      type: "function_call",
      name: "write_stdin",
      arguments: JSON.stringify({ session_id: session, chars: "", yield_time_ms: 1000 }),
      call_id: pollId,
    });
    emit("response_item", { type: "function_call_output", call_id: pollId, output: running("b2") });
    const end = () =>
      emit("event_msg", {
        type: "exec_command_end",
        call_id: callId,
        process_id: String(session),
        command: ["/bin/bash", "-lc", command],
        cwd: dir,
        stdout: output,
        stderr: "",
        aggregated_output: output,
        exit_code: exitCode,
        duration: { secs: 5, nanos: n },
        formatted_output: output,
        status: exitCode === 0 ? "completed" : "failed",
      });
    if (n % 8 === 5) endsDue.set(currentTurn + 2, [...(endsDue.get(currentTurn + 2) ?? []), end]);
    else end();
  };
  for (let turn = 0; bytes < targetBytes; turn++) {
    currentTurn = turn;
    const turnId = varyId(t.started.payload.turn_id as string, turn, 16);
    const dir = `${cwd}/packages/pkg-${turn % 97}`;
    const local = (s: string) => s.replaceAll("/home/marco/projects/spotter", dir).replaceAll("/home/USER/projects", dir);
    emit("event_msg", { ...t.started.payload, turn_id: turnId, started_at: Math.floor(clock / 1000) });
    emit("turn_context", {
      ...t.context.payload,
      turn_id: turnId,
      cwd: dir,
      current_date: new Date(clock).toISOString().slice(0, 10),
    });
    const prompt = `${local(pick(c.prompts, turn))} (turn ${turn})`;
    emit("response_item", { ...t.user.payload, content: [{ type: "input_text", text: prompt }] });
    emit("event_msg", { ...t.userEvent.payload, message: prompt });
    const calls = 3 + (turn % 6);
    for (let k = 0; k < calls; k++, call++) {
      const callId = `call_${createHash("sha1").update(String(call)).digest("base64url").slice(0, 24)}`;
      emit("response_item", {
        type: "reasoning",
        summary: [{ type: "summary_text", text: local(pick(c.thinking, call)).slice(0, 400) }],
        content: null,
        encrypted_content: createHash("sha256").update(callId).digest("base64"),
      });
      if (call % 5 === 4 && c.edits.length > 0) {
        const edit = pick(c.edits, call);
        const file = local(edit.file_path);
        const patch = [
          "*** Begin Patch",
          `*** Update File: ${file}`,
          "@@",
          ...edit.old_string.split("\n").map((l) => `-${l}`),
          ...edit.new_string.split("\n").map((l) => `+${l}`),
          "*** End Patch",
        ].join("\n");
        emit("response_item", {
          type: "custom_tool_call",
          status: "completed",
          call_id: callId,
          name: "apply_patch",
          input: patch,
        });
        emit("response_item", {
          type: "custom_tool_call_output",
          call_id: callId,
          output: JSON.stringify({
            output: `Success. Updated the following files:\nM ${file}\n`,
            metadata: { exit_code: 0, duration_seconds: 0.0 },
          }),
        });
        continue;
      }
      const command = local(pick(c.commands, call));
      const output = local(pick(c.outputs, call * 7 + turn));
      const exitCode = call % 11 === 3 ? 1 : 0;
      if (call % 4 === 1) {
        unifiedExec(callId, command, output, exitCode, dir, (call - 1) / 4);
        continue;
      }
      emit("response_item", {
        type: "function_call",
        name: "shell",
        arguments: JSON.stringify({ command: ["bash", "-lc", command], workdir: dir, timeout_ms: 120000 }),
        call_id: callId,
      });
      emit("event_msg", {
        type: "exec_command_end",
        call_id: callId,
        command: ["bash", "-lc", command],
        cwd: dir,
        stdout: output,
        stderr: "",
        aggregated_output: output,
        exit_code: exitCode,
        duration: { secs: 0, nanos: 120_000_000 + call },
        formatted_output: output,
      });
      emit("response_item", {
        type: "function_call_output",
        call_id: callId,
        output: `Exit code: ${exitCode}\nWall time: 0.1 seconds\nOutput:\n${output}`,
      });
    }
    for (const end of endsDue.get(turn) ?? []) end();
    endsDue.delete(turn);
    const answer = local(pick(c.texts, turn));
    emit("event_msg", { ...t.agentEvent.payload, message: answer });
    emit("response_item", { ...t.assistant.payload, content: [{ type: "output_text", text: answer }] });
    emit("event_msg", t.tokens.payload);
    emit("event_msg", {
      ...t.complete.payload,
      turn_id: turnId,
      last_agent_message: answer,
      completed_at: Math.floor(clock / 1000),
    });
  }
  return `${out.join("\n")}\n`;
}

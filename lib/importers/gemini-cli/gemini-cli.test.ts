import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { headOf } from "../shared/detect";
import { GEMINI_CLI_IGNORED_RECORDS, parseGeminiCli } from "./index";
import { detectFormat, IMPORTERS, importTranscript } from "../index";
import { effectOn, expectWellFormed, fixture, kinds, only, text, verdictOf } from "../shared/testkit";
import { utf8 } from "../shared/text";
import type { ImportedSpan } from "../shared/types";

// Hand-written samples shaped exactly as Gemini CLI's recorder writes them (see ./index.ts).
const documentFile = fixture("gemini-cli/handwritten-session.json");
const linesFile = fixture("gemini-cli/handwritten-session.jsonl");
// A real session file (see fixtures/gemini-cli/SOURCES.md).
const realDocument = fixture("gemini-cli/agent-history-session-01.json");

const meta = JSON.stringify({
  sessionId: "s1",
  projectHash: "h",
  startTime: "2026-01-01T00:00:00.000Z",
  lastUpdated: "2026-01-01T00:00:00.000Z",
  kind: "main",
});
const msg = (id: string, type: string, content: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id, timestamp: "2026-01-01T00:00:01.000Z", type, content, ...extra });

describe("Gemini CLI importer: detection", () => {
  it.each([
    ["a session document", documentFile],
    ["a session in JSON Lines", linesFile],
  ])("detects %s as gemini-cli, above Claude Code's score", (_name, bytes) => {
    expect(detectFormat(bytes)).toBe("gemini-cli");
    const head = headOf(bytes);
    expect(IMPORTERS["gemini-cli"].detect(head)).toBeGreaterThan(IMPORTERS["claude-code"].detect(head));
    const result = importTranscript(bytes);
    expect(result.format).toBe("gemini-cli");
    expectWellFormed(result);
    expect(result.records.skipped).toBe(0);
  });

  it("detects and imports the real session document with every record accounted for", () => {
    expect(detectFormat(realDocument)).toBe("gemini-cli");
    const result = importTranscript(realDocument);
    expect(result.format).toBe("gemini-cli");
    expectWellFormed(result);
    expect(result.records).toEqual({ read: 2, used: 2, ignored: 0, skipped: 0, ignoredByType: {} });
  });

  it("does not take a Claude Code or Codex file", () => {
    expect(IMPORTERS["gemini-cli"].detect(headOf(fixture("claude-code-session.jsonl")))).toBeLessThan(0.5);
    expect(IMPORTERS["gemini-cli"].detect(headOf(fixture("codex/rollout-sample.jsonl")))).toBeLessThan(0.5);
  });
});

describe("Gemini CLI importer: a real session document", () => {
  const s = only(parseGeminiCli(realDocument));

  it("reads the prompt, the thought with its own time and the reply", () => {
    expect(s.externalId).toBe("dcbe78d3-ea75-4786-929e-d6cff0fc00ed");
    expect(s.startedAt?.toISOString()).toBe("2026-06-05T04:59:42.197Z");
    expect(s.spans.map((x) => [x.kind, x.role, x.sourceLine, x.occurredAt.toISOString(), text(x)])).toEqual([
      ["MESSAGE", "user", 1, "2026-06-05T04:59:42.197Z", "[REDACTED_PROMPT]"],
      ["MESSAGE", "reasoning", 2, "2026-06-05T04:59:44.830Z", "Generating Specific Response\n[REDACTED_THOUGHT]"],
      ["MESSAGE", "assistant", 2, "2026-06-05T04:59:44.839Z", "[REDACTED_ASSISTANT_TEXT]"],
    ]);
  });
});

describe("Gemini CLI importer: a session document", () => {
  const result = parseGeminiCli(documentFile);
  const s = only(result);

  it("names the session and accounts for every message", () => {
    expect(s.externalId).toBe("5e1d2c3b-4a59-4687-9a0b-1c2d3e4f5a6b");
    expect(s.runtime).toBe("gemini-cli");
    expect(s.title).toBe("Point the app at the new database host and restart it. ¡gracias!");
    expect(result.records).toEqual({ read: 8, used: 7, ignored: 1, skipped: 0, ignoredByType: { "empty-message": 1 } });
    expect(Object.keys(GEMINI_CLI_IGNORED_RECORDS)).toEqual(["empty-message"]);
    expectWellFormed(result);
  });

  it("maps thoughts, text, tool calls with their results, and notices", () => {
    expect(kinds(s)).toEqual([
      "MESSAGE",
      "MESSAGE",
      "MESSAGE",
      "TOOL_CALL",
      "TOOL_RESULT",
      "TOOL_CALL",
      "TOOL_RESULT",
      "TOOL_CALL",
      "TOOL_RESULT",
      "MESSAGE",
      "MESSAGE",
      "MESSAGE",
      "MESSAGE",
    ]);
    expect(s.spans.map((x) => x.role ?? null)).toEqual([
      "user",
      "reasoning",
      "assistant",
      null,
      null,
      null,
      null,
      null,
      null,
      "system",
      "user",
      "system",
      "assistant",
    ]);
    expect(text(s.spans[1])).toBe("Locating the config\nThe app reads /etc/app/conf.yaml.");
    expect(text(s.spans[11])).toMatch(/^\[API Error: got status: 503/);
  });

  it("keeps the arguments as the file holds them, and parsed", () => {
    const write = s.spans[3]!;
    expect(write).toMatchObject({
      toolName: "write_file",
      sourceId: "write_file-1759396460100-a1",
      outcome: "SUCCEEDED",
      sourceLine: 2,
    });
    expect(write.toolInput).toEqual({ file_path: "/etc/app/conf.yaml", content: "db:\n  host: db2.internal\n  port: 5432\n" });
    expect(text(write)).toMatch(/^\{\n {12}"file_path": "\/etc\/app\/conf.yaml",/);
    expect(text(s.spans[4])).toBe("Successfully overwrote file: /etc/app/conf.yaml.");
  });

  it("reads a shell command's exit code: a 'success' that exited 1 FAILED", () => {
    expect(s.spans[5]).toMatchObject({ toolName: "run_shell_command", outcome: "FAILED", exitCode: 1 });
    expect(s.spans[6]).toMatchObject({ kind: "TOOL_RESULT", exitCode: 1 });
  });

  it("a call the user refused at its confirmation is DECLINED", () => {
    expect(s.spans[7]).toMatchObject({ outcome: "DECLINED" });
    expect(s.spans[7]!.exitCode).toBeUndefined();
    expect(text(s.spans[8])).toBe("[Operation Cancelled] Reason: User did not allow tool call");
  });

  it("answers YES to a write under /etc", () => {
    expect(verdictOf(result, effectOn("/etc/app/"))).toBe("YES");
  });
});

describe("Gemini CLI importer: a session in JSON Lines", () => {
  const result = parseGeminiCli(linesFile);
  const s = only(result);

  it("takes title from the session summary and cwd from the injected context", () => {
    expect(s.externalId).toBe("2ab3c4d5-6e7f-4890-a1b2-c3d4e5f60718");
    expect(s.title).toBe("Index invoices by customer and migrate");
    expect(s.cwd).toBe("/home/dana/src/billing");
    expect(result.records).toEqual({ read: 19, used: 19, ignored: 0, skipped: 0, ignoredByType: {} });
    expect(result.issues).toEqual([]);
  });

  it("merges the versions of a message: one assistant message, its calls once each", () => {
    expect(s.spans.filter((x) => x.sourceId === "g1" && x.role === "assistant")).toHaveLength(1);
    expect(s.spans.filter((x) => x.kind === "TOOL_CALL").map((x) => x.sourceId)).toEqual([
      "replace_1",
      "shell_2",
      "shell_3",
      "shell_4",
      "shell_5",
    ]);
    // The result of each call is its own response, not a sibling's written into the same list.
    expect(text(s.spans[7])).toBe("Output: migrated 002_invoices\nProcess Group PGID: 7001");
    expect(s.spans[6]).toMatchObject({ toolName: "run_shell_command", outcome: "SUCCEEDED", cwd: "/home/dana/src/billing" });
  });

  it("pairs a bare functionCall part with the response recorded as a user message", () => {
    const call = s.spans.find((x) => x.sourceId === "shell_3" && x.kind === "TOOL_CALL")!;
    expect(call).toMatchObject({ outcome: "FAILED", exitCode: 2, sourceLine: 9 });
    expect(text(call)).toBe(String.raw`{"command":"psql -c '\\\\d invoices'"}`);
    const res = s.spans[call.seq + 1]!;
    expect(res).toMatchObject({ kind: "TOOL_RESULT", sourceLine: 10, exitCode: 2 });
  });

  it("maps the compression to a SUMMARY replacing the messages the new list dropped", () => {
    const summary = s.spans.find((x) => x.kind === "SUMMARY")!;
    expect(text(summary)).toMatch(/^<state_snapshot>/);
    const rewound = s.spans.find((x) => x.sourceId === "x1")!;
    expect(s.compactions).toHaveLength(1);
    const [c] = s.compactions;
    expect(c!.summarySeq).toBe(summary.seq);
    // Everything after the injected context up to the warning; the rewound prompt had left the list.
    expect(c!.replacedSeqs).toEqual(s.spans.filter((x) => x.seq >= 1 && x.seq < rewound.seq).map((x) => x.seq));
  });

  it("refused and dropped calls after a refusal: DECLINED then NOT_RUN", () => {
    const outcomes = s.spans.filter((x) => x.kind === "TOOL_CALL").map((x) => x.outcome);
    expect(outcomes).toEqual(["SUCCEEDED", "SUCCEEDED", "FAILED", "DECLINED", "NOT_RUN"]);
  });

  it("answers YES to the migration edit and to the refused DROP TABLE", () => {
    expect(verdictOf(result, effectOn("/home/dana/src/billing/migrations/"))).toBe("YES");
    expect(verdictOf(result, (span) => span.kind === "TOOL_CALL" && text(span).includes("DROP TABLE"))).toBe("YES");
  });
});

describe("Gemini CLI importer: edge cases", () => {
  const lines = (...records: string[]) => utf8(`${records.join("\n")}\n`);

  it("skips a malformed line, an unknown record, an unknown message type and a truncated final line", () => {
    const bytes = utf8(
      [
        meta,
        msg("u1", "user", "hello"),
        "{not json",
        JSON.stringify({ hello: "world" }),
        msg("m2", "hyperdrive", "x"),
        msg("g1", "gemini", "hi").slice(0, 30),
      ].join("\n"),
    );
    const result = parseGeminiCli(bytes);
    expectWellFormed(result);
    expect(result.issues.map((i) => i.line)).toEqual([3, 4, 5, 6]);
    expect(result.issues[2]!.message).toBe('unknown message type "hyperdrive"; skipped');
    expect(result.issues[3]!.message).toMatch(/truncated final line/);
    expect(only(result).skipped.map((i) => i.line)).toEqual([3, 4, 5, 6]);
  });

  it("skips a line of invalid UTF-8", () => {
    const good = lines(meta, msg("u1", "user", "hello"));
    const bad = new Uint8Array([...good, 0x7b, 0xff, 0xfe, 0x7d, 0x0a]);
    const result = parseGeminiCli(bad);
    expectWellFormed(result);
    expect(result.issues).toEqual([{ line: 3, message: "invalid UTF-8; line skipped" }]);
  });

  // Counterexamples the property found: a damaged key hid a message's reply or every tool call.
  it("reports a message without `content` or with a field the recorder never writes", () => {
    const calls = [{ id: "c1", name: "run_shell_command", args: { command: "rm -rf /etc/app" }, status: "success" }];
    const reply = JSON.parse(msg("g1", "gemini", "done", { toolCalls: calls })) as Record<string, unknown>;
    const { content, toolCalls, ...rest } = reply;
    const result = parseGeminiCli(
      lines(
        meta,
        JSON.stringify({ ...rest, "5ontent": content, toolCalls }),
        JSON.stringify({ ...rest, content, "3oolCalls": toolCalls }),
      ),
    );
    expectWellFormed(result);
    expect(only(result).skipped.map((i) => i.message)).toEqual([
      "a message without `content`; what it held is not imported",
      "a message field Gemini CLI does not write (`3oolCalls`); what it held is not imported",
    ]);
    expect(verdictOf(result, effectOn("/etc/app"))).not.toBe("NO");
  });

  it("makes a document that is not valid JSON as a whole incomplete", () => {
    // A stray bracket ends the message list early: the message after it is never reached.
    const damaged = new TextDecoder().decode(realDocument).replace('"messages": [\n', '"messages": [\n    },\n');
    const result = parseGeminiCli(utf8(damaged));
    expectWellFormed(result);
    expect(result.issues).toContainEqual({
      line: 0,
      message: "the document is not valid JSON as a whole; its messages were read one by one",
    });
    expect(verdictOf(result, replied)).toBe("INSUFFICIENT_EVIDENCE");
  });

  it("reports fields of the wrong type instead of dropping what they held", () => {
    const result = parseGeminiCli(
      lines(meta, msg("g1", "gemini", "ok", { toolCalls: "oops" }), msg("u2", "user", [{ text: 5 }])),
    );
    expectWellFormed(result);
    expect(result.records).toMatchObject({ read: 3, used: 2, skipped: 1 });
    expect(only(result).skipped.map((i) => i.line)).toEqual([2, 3]);
    expect(verdictOf(result, () => false)).toBe("INSUFFICIENT_EVIDENCE");
  });

  it("makes a truncated document incomplete, keeping the messages before the cut", () => {
    const cut = documentFile.subarray(0, documentFile.indexOf(utf8('"type": "info"')[0]!, 4000));
    const result = parseGeminiCli(cut);
    expectWellFormed(result);
    expect(only(result).spans.length).toBeGreaterThan(3);
    expect(only(result).skipped.length).toBeGreaterThan(0);
  });

  it("reads a response whose call is not in the file as a result on its own", () => {
    const response = [{ functionResponse: { id: "c9", name: "read_file", response: { output: "data" } } }];
    const s = only(parseGeminiCli(lines(meta, msg("r1", "user", response))));
    expect(s.spans).toMatchObject([{ kind: "TOOL_RESULT", toolName: "read_file", sourceId: "c9" }]);
  });

  it("keeps code the model ran with code execution, and its result, as the assistant's message", () => {
    // GeminiChat records a model turn with no text, thought or call with its parts as they came
    // (recordSyntheticMessage("gemini", consolidatedParts)).
    const parts = [
      { executableCode: { language: "PYTHON", code: "import os\nos.remove('/etc/app/conf.yaml')" } },
      { codeExecutionResult: { outcome: "OUTCOME_OK", output: "" } },
    ];
    const result = parseGeminiCli(lines(meta, msg("g1", "gemini", parts)));
    expectWellFormed(result);
    expect(result.records).toMatchObject({ read: 2, used: 2, ignored: 0 });
    const s = only(result);
    expect(s.spans).toMatchObject([{ kind: "MESSAGE", role: "assistant" }]);
    expect(text(s.spans[0]!)).toContain("os.remove('/etc/app/conf.yaml')");
    expect(text(s.spans[0]!)).toContain("[code execution result OUTCOME_OK]");
  });

  it("marks every span of a subagent's session with the subagent's id", () => {
    // ChatRecordingService.initialize(undefined, "subagent"): chats/<parent session id>/<agent id>.jsonl,
    // whose sessionId is the agentId the parent's delegating call records.
    const head = JSON.stringify({
      sessionId: "agent-7",
      projectHash: "h",
      startTime: "2026-01-01T00:00:00.000Z",
      lastUpdated: "2026-01-01T00:00:00.000Z",
      kind: "subagent",
      directories: ["/work/app"],
    });
    const calls = [
      {
        id: "c1",
        name: "read_file",
        args: { file_path: "/work/app/a.ts" },
        result: [{ functionResponse: { id: "c1", name: "read_file", response: { output: "x" } } }],
        status: "success",
        timestamp: "2026-01-01T00:00:02.000Z",
        resultDisplay: "",
        description: "",
        displayName: "ReadFile",
        renderOutputAsMarkdown: false,
      },
    ];
    const s = only(
      parseGeminiCli(lines(head, msg("u1", "user", [{ text: "Read a.ts" }]), msg("g1", "gemini", "", { toolCalls: calls }))),
    );
    expect(s.externalId).toBe("agent-7");
    expect(s.spans.map((x) => [x.kind, x.agentId])).toEqual([
      ["MESSAGE", "agent-7"],
      ["TOOL_CALL", "agent-7"],
      ["TOOL_RESULT", "agent-7"],
    ]);
  });

  it("a call recorded before it finished has outcome UNKNOWN and no result", () => {
    const calls = [
      {
        id: "c1",
        name: "run_shell_command",
        args: { command: "make" },
        status: "executing",
        timestamp: "2026-01-01T00:00:02.000Z",
      },
    ];
    const s = only(parseGeminiCli(lines(meta, msg("g1", "gemini", "", { toolCalls: calls }))));
    expect(s.spans).toMatchObject([{ kind: "TOOL_CALL", outcome: "UNKNOWN" }]);
  });
});

describe("Gemini CLI importer: outcomes as the scheduler and the shell tool write them", () => {
  const lines = (...records: string[]) => utf8(`${records.join("\n")}\n`);
  // A completed call as GeminiChat.recordCompletedToolCalls writes it and ChatRecordingService
  // enriches it (google-gemini/gemini-cli 5411f113, packages/core/src/core/geminiChat.ts): the
  // scheduler's error responses are `{error: message}` with the message as resultDisplay
  // (packages/core/src/scheduler/scheduler.ts createErrorResponse); the shell tool's output is
  // wrapped in <untrusted_context> (packages/core/src/tools/shell.ts).
  const call = (id: string, name: string, args: Record<string, unknown>, status: string, response: Record<string, unknown>) => ({
    id,
    name,
    args,
    result: [{ functionResponse: { id, name, response } }],
    status,
    timestamp: "2026-01-01T00:00:02.000Z",
    resultDisplay: typeof response.error === "string" ? response.error : response.output,
    description: "",
    displayName: name === "run_shell_command" ? "Shell" : name,
    renderOutputAsMarkdown: false,
  });
  const outcomesOf = (...calls: ReturnType<typeof call>[]) => {
    const g = msg("g1", "gemini", "", { toolCalls: calls, thoughts: [], tokens: null, model: "gemini-2.5-pro" });
    const s = only(parseGeminiCli(lines(meta, g)));
    return s.spans.filter((x) => x.kind === "TOOL_CALL").map((x) => [x.outcome, x.exitCode]);
  };
  const shell = (command: string) => ({ command, description: "run it" });
  const wrapped = (text: string) => `<untrusted_context>\n${text}\n</untrusted_context>`;

  it("a call refused by policy, by a BeforeTool hook, or needing confirmation in a non-interactive run is DECLINED", () => {
    expect(
      outcomesOf(
        call("c1", "run_shell_command", shell("rm -rf /etc/app"), "error", {
          error: "Tool execution denied by policy. Deletions need review.",
        }),
        call("c2", "write_file", { file_path: "/etc/hosts", content: "x" }, "error", {
          error: "Tool execution blocked: writes under /etc are not allowed",
        }),
        call("c3", "run_shell_command", shell("make deploy"), "error", {
          error: "Agent execution stopped by hook: deploys are frozen",
        }),
        call("c4", "run_shell_command", shell("apt-get install jq"), "error", {
          error: 'Tool execution for "Shell" requires user confirmation, which is not supported in non-interactive mode.',
        }),
      ),
    ).toEqual([
      ["DECLINED", undefined],
      ["DECLINED", undefined],
      ["DECLINED", undefined],
      ["DECLINED", undefined],
    ]);
  });

  it("a call to a tool that does not exist was never run; other errors FAILED", () => {
    expect(
      outcomesOf(
        call("c1", "run_shel_command", shell("ls"), "error", {
          error: 'Tool "run_shel_command" not found. Did you mean "run_shell_command"?',
        }),
        call("c2", "read_file", { file_path: "/nope" }, "error", { error: "File not found: /nope" }),
      ),
    ).toEqual([
      ["NOT_RUN", undefined],
      ["FAILED", undefined],
    ]);
  });

  it("a shell command killed at its timeout FAILED; one moved to the background has not ended (UNKNOWN)", () => {
    expect(
      outcomesOf(
        call("c1", "run_shell_command", shell("npm test"), "success", {
          output: wrapped(
            "Command was automatically cancelled because it exceeded the timeout of 5.0 minutes without output. There was no output before it was cancelled.",
          ),
        }),
        call("c2", "run_shell_command", shell("npm run dev"), "success", {
          output: wrapped("Command moved to background (PID: 4242). Output hidden. Press Ctrl+B to view."),
        }),
        call("c3", "run_shell_command", shell("false"), "success", {
          output: wrapped("Output: (empty)\nExit Code: 1\nProcess Group PGID: 4243"),
        }),
        call("c4", "run_shell_command", shell("true"), "success", {
          output: wrapped("Output: (empty)\nProcess Group PGID: 4244"),
        }),
      ),
    ).toEqual([
      ["FAILED", undefined],
      ["UNKNOWN", undefined],
      ["FAILED", 1],
      ["SUCCEEDED", undefined],
    ]);
  });
});

/**
 * Corrupting records never turns the full file's YES into NO. Whole-record deletion is not
 * included: Gemini CLI records carry no parent pointers or sequence numbers, so a message missing
 * from the file (or a JSON Lines version of it) cannot be detected; only a call's response is
 * linked to its call, and a call deleted with its message leaves a response without call, which is
 * still imported as a result.
 */
/**
 * The model replied: any assistant message (the real file's one reply is redacted text, so a byte
 * changed inside it is different content, not damage; a damaged key or type must be caught).
 */
const replied = (span: ImportedSpan) => span.kind === "MESSAGE" && span.role === "assistant";

type Corruption = (record: string, seed: number) => string;

/** Damage every corruption property below applies: a bad byte, a cut, broken JSON, wrong types. */
const COMMON_CORRUPTIONS: Corruption[] = [
  // A damaged byte: a raw control character, which no JSON text may hold. (A printable character
  // in its place can land inside a string and make another valid record, e.g. "/home" -> "Rhome":
  // different content, not damage, which no importer could tell from the real thing.)
  (r, seed) => {
    const i = seed % r.length;
    return `${r.slice(0, i)}\u0001${r.slice(i + 1)}`;
  },
  (r, seed) => r.slice(0, seed % r.length),
  (r) => r.replace(/[}\]]\s*$/, ""),
  (r) => r.replace(/"args"\s*:\s*\{/, '"args": 5, "x": {'),
  (r) => r.replace(/"toolCalls"\s*:\s*\[/, '"toolCalls": 7, "x": ['),
  (r) => r.replace(/"type"\s*:\s*"[a-z]+"/, '"type": 3'),
];

describe("Gemini CLI importer: corrupted records never turn YES into NO", () => {
  const corruptions: Corruption[] = [...COMMON_CORRUPTIONS, (r) => r.replace(/"content"\s*:\s*/, '"content": 9, "x": ')];

  it.each([
    ["the JSON Lines session", linesFile, "\n", effectOn("/home/dana/src/billing/migrations/")],
    ["the session document", documentFile, "\n    },\n    {\n", effectOn("/etc/app/")],
    ["the real session document", realDocument, "\n    },\n    {\n", replied],
  ] as const)(
    "%s",
    (_name, bytes, separator, question) => {
      expect(verdictOf(parseGeminiCli(bytes), question)).toBe("YES");
      const whole = new TextDecoder().decode(bytes);
      const records = whole.split(separator);
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.nat({ max: records.length - 1 }), fc.nat({ max: corruptions.length - 1 }), fc.nat()), {
            minLength: 1,
            maxLength: 4,
          }),
          (edits) => {
            const copy = [...records];
            for (const [at, kind, seed] of edits) copy[at] = corruptions[kind]!(copy[at]!, seed);
            const result = parseGeminiCli(utf8(copy.join(separator)));
            expectWellFormed(result);
            expect(verdictOf(result, question)).not.toBe("NO");
          },
        ),
        { numRuns: 300 },
      );
    },
    60_000,
  );
});

// Two more real session documents (see fixtures/gemini-cli/SOURCES.md): file reads, a write and a
// replace under an absolute project path; a delegation to a subagent, todo lists and three writes.
const realEdits = fixture("gemini-cli/codemie-session-2025-12-01.json");
const realFileOps = fixture("gemini-cli/codemie-session-2026-01-16-file-ops.json");

describe("Gemini CLI importer: real session documents with tool calls", () => {
  it.each([
    ["edits", realEdits, 44],
    ["file-ops", realFileOps, 38],
  ] as const)("imports the %s session by detection, every message used", (_name, bytes, spans) => {
    expect(detectFormat(bytes)).toBe("gemini-cli");
    const result = importTranscript(bytes);
    expectWellFormed(result);
    expect(result.records).toEqual({ read: 14, used: 14, ignored: 0, skipped: 0, ignoredByType: {} });
    expect(result.issues).toEqual([]);
    expect(only(result).spans).toHaveLength(spans);
  });

  it("pairs each call with its result: the write, the replace, every read SUCCEEDED", () => {
    const s = only(parseGeminiCli(realEdits));
    expect(s.externalId).toBe("5b959dae-8655-4cd1-b10f-720b8c336ea2");
    expect(s.title).toBe("hi");
    const calls = s.spans.filter((x) => x.kind === "TOOL_CALL");
    expect(calls.map((x) => [x.toolName, x.outcome, x.sourceLine])).toEqual([
      ["list_directory", "SUCCEEDED", 4],
      ["read_file", "SUCCEEDED", 5],
      ["read_file", "SUCCEEDED", 6],
      ["read_file", "SUCCEEDED", 7],
      ["read_file", "SUCCEEDED", 8],
      ["read_file", "SUCCEEDED", 11],
      ["write_file", "SUCCEEDED", 11],
      ["read_file", "SUCCEEDED", 11],
      ["replace", "SUCCEEDED", 12],
      ["read_file", "SUCCEEDED", 13],
    ]);
    const write = calls.find((x) => x.toolName === "write_file")!;
    expect(write.sourceId).toBe("write_file-1764625701890-a743f9e75c7ca8");
    // The call takes its message's time, its result the call record's own.
    expect(write.occurredAt.toISOString()).toBe("2025-12-01T21:48:11.367Z");
    const written = s.spans.find((x) => x.kind === "TOOL_RESULT" && x.sourceId === write.sourceId)!;
    expect(written.occurredAt.toISOString()).toBe("2025-12-01T21:49:35.822Z");
    expect((write.toolInput as { file_path: string }).file_path).toBe(
      "/Users/Jane_Smith/Documents/projects/epm-cdme/assistants/lead_gemini.txt",
    );
    const results = s.spans.filter((x) => x.kind === "TOOL_RESULT");
    expect(results).toHaveLength(calls.length);
    expect(results.every((x) => x.outcome === "SUCCEEDED")).toBe(true);
    expect(
      verdictOf(parseGeminiCli(realEdits), effectOn("/Users/Jane_Smith/Documents/projects/epm-cdme/assistants/lead_gemini.txt")),
    ).toBe("YES");
  });

  it("keeps a delegation to a subagent and the three writes of hello.md", () => {
    const s = only(parseGeminiCli(realFileOps));
    const calls = s.spans.filter((x) => x.kind === "TOOL_CALL");
    expect(calls.map((x) => x.toolName)).toEqual([
      "write_todos",
      "delegate_to_agent",
      "write_todos",
      "read_file",
      "read_file",
      "read_file",
      "write_todos",
      "search_file_content",
      "read_file",
      "write_file",
      "read_file",
      "write_file",
      "read_file",
      "write_file",
    ]);
    expect(calls.every((x) => x.outcome === "SUCCEEDED")).toBe(true);
    const writes = calls.filter((x) => x.toolName === "write_file");
    const resultOf = (call: ImportedSpan) => s.spans.find((x) => x.kind === "TOOL_RESULT" && x.sourceId === call.sourceId)!;
    expect(writes.map((x) => [x.sourceLine, x.occurredAt.toISOString(), resultOf(x).occurredAt.toISOString()])).toEqual([
      [7, "2026-01-16T12:33:42.758Z", "2026-01-16T12:33:42.757Z"],
      [10, "2026-01-16T12:34:02.084Z", "2026-01-16T12:34:09.445Z"],
      [13, "2026-01-16T12:34:21.347Z", "2026-01-16T12:34:26.753Z"],
    ]);
    expect(text(writes[0])).toContain('"content": "# Hello World"');
  });
});

const wroteHello = (span: ImportedSpan) =>
  span.kind === "TOOL_CALL" &&
  span.toolName === "write_file" &&
  (span.toolInput as { file_path?: unknown } | undefined)?.file_path === "hello.md";

describe("Gemini CLI importer: corrupted records of the real tool sessions never turn YES into NO", () => {
  const corruptions: Corruption[] = [...COMMON_CORRUPTIONS, (r) => r.replace(/"name"\s*:\s*"[a-z_]+"/, '"name": []')];

  it.each([
    ["the edits session", realEdits, effectOn("/Users/Jane_Smith/Documents/projects/epm-cdme/assistants/")],
    ["the file-ops session", realFileOps, wroteHello],
  ] as const)(
    "%s",
    (_name, bytes, question) => {
      expect(verdictOf(parseGeminiCli(bytes), question)).toBe("YES");
      const records = new TextDecoder().decode(bytes).split("\n    },\n    {\n");
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.nat({ max: records.length - 1 }), fc.nat({ max: corruptions.length - 1 }), fc.nat()), {
            minLength: 1,
            maxLength: 4,
          }),
          (edits) => {
            const copy = [...records];
            for (const [at, kind, seed] of edits) copy[at] = corruptions[kind]!(copy[at]!, seed);
            const result = parseGeminiCli(utf8(copy.join("\n    },\n    {\n")));
            expectWellFormed(result);
            expect(verdictOf(result, question)).not.toBe("NO");
          },
        ),
        { numRuns: 200 },
      );
    },
    60_000,
  );
});

describe("Gemini CLI importer: a real 0.23 session, whose shell output always names a signal", () => {
  // See fixtures/gemini-cli/SOURCES.md: 0.23 wrote `Signal: 0` for every command no signal killed.
  const result = importTranscript(fixture("gemini-cli/entire-0.23-session-f7633853.json"));
  const calls = only(result).spans.filter((x) => x.kind === "TOOL_CALL");

  it("reads `Signal: 0` as no signal: each command that exited 0 SUCCEEDED", () => {
    expectWellFormed(result);
    expect(result.records).toMatchObject({ read: 13, used: 13, skipped: 0 });
    const shell = calls.filter((c) => c.toolName === "run_shell_command");
    expect(shell.map((c) => [c.sourceLine, c.outcome, c.exitCode])).toEqual([
      [3, "SUCCEEDED", 0],
      [4, "SUCCEEDED", 0],
      [7, "SUCCEEDED", 0],
      [9, "SUCCEEDED", 0],
      [11, "SUCCEEDED", 0],
      [12, "SUCCEEDED", 0],
    ]);
    expect(
      shell.every((c) =>
        /^Signal: 0$/m.test(text(only(result).spans.find((r) => r.kind === "TOOL_RESULT" && r.sourceId === c.sourceId))),
      ),
    ).toBe(true);
  });

  it("still reads a signal that killed the command as FAILED", () => {
    // The same session, its first command's output saying a signal (15) ended it.
    const real = new TextDecoder().decode(fixture("gemini-cli/entire-0.23-session-f7633853.json"));
    const killed = real.replace("Signal: 0", "Signal: 15");
    expect(killed).not.toBe(real);
    const shell = only(parseGeminiCli(utf8(killed))).spans.filter(
      (x) => x.kind === "TOOL_CALL" && x.toolName === "run_shell_command",
    );
    expect(shell.map((c) => c.outcome)).toEqual(["FAILED", "SUCCEEDED", "SUCCEEDED", "SUCCEEDED", "SUCCEEDED", "SUCCEEDED"]);
  });
});

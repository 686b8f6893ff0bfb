/**
 * The output rules on output as programs write it. Lines marked "fixture" are copied from the real
 * transcripts kept under lib/importers/fixtures; the others are the messages bash, dash, curl,
 * npm, apt and CPython write (their own wording, as each prints it).
 */
import { describe, expect, it } from "vitest";
import { outcomeInDoubt } from "./outcomes";
import { outputErrorSignal, readOutputIntoOutcome } from "./output-signals";

const SUCCEEDED_EXIT_0 = { outcome: "SUCCEEDED" as const, exitCode: 0 };

describe("shell errors", () => {
  it.each([
    // bash's history expansion in an interactive shell: the line never ran.
    ["bash: !/bin/bash: event not found", 'echo -e "#!/bin/bash\\necho hi" > run.sh'],
    // fixture: openhands/eval-multi-swe-bench-output.jsonl
    ["bash: ponyc: command not found", "ponyc test.pony -o ."],
    // fixture: openhands/eval-sdk-openagentsafety-output.jsonl (the terminal's bracketed-paste codes around it)
    ["\u001b[?2004lbash: mail: command not found\n\u001b[?2004h", "echo x | mail -s report mark@example.com"],
    ["sh: 1: cannot create /nonexistent/out.txt: Directory nonexistent", "echo x > /nonexistent/out.txt"],
    ["bash: line 1: /tmp/missing/log: No such file or directory", "echo x > /tmp/missing/log"],
    ["bash: -c: line 1: syntax error near unexpected token `('", "echo (x"],
    ["bash: -c: line 2: syntax error: unexpected end of file", "if true; then echo"],
    ["zsh: command not found: pyhton", "pyhton x.py"],
    ["/bin/sh: 1: jq: not found", "curl -s localhost | jq ."],
  ])("%s is the shell's own error: FAILED with the runtime's exit 0 on record", (output, command) => {
    expect(outputErrorSignal(output, command)?.source).toBe("shell");
    const read = readOutputIntoOutcome(SUCCEEDED_EXIT_0, output, command);
    expect(read.outcome).toBe("FAILED");
    expect(read.doubt).toMatch(/^the runtime reported exit 0, but the shell in the output reports an error: /);
    expect(outcomeInDoubt({ outcome: read.outcome, exitCode: 0 })).toBe(true);
  });

  it.each([
    "bash: cannot set terminal process group (-1): Inappropriate ioctl for device\nbash: no job control in this shell\nok",
    "bash: warning: setlocale: LC_ALL: cannot change locale (en_US.UTF-8)\nbuilt",
    // A program's own message that mentions a missing file is not the shell's.
    "nrg: node_modules/opencode: No such file or directory (os error 2)",
    "grep: command not found in docs",
  ])("not the shell's error: %s", (output) => {
    expect(outputErrorSignal(output, "make")).toBeNull();
    expect(readOutputIntoOutcome(SUCCEEDED_EXIT_0, output, "make")).toEqual({ outcome: "SUCCEEDED" });
  });
});

describe("HTTP clients", () => {
  const post = `curl -s -X POST http://localhost:8000/api/items -H 'Content-Type: application/json' -d '{"name": "x"}'`;

  it.each([
    ['{"status":"error","message":"Failed to parse JSON"}', post],
    ['{"detail":"Not authenticated","error":"unauthorized"}', post],
    ['{"ok":false,"error":"channel_not_found"}', "curl -s -X POST https://slack.com/api/chat.postMessage -d channel=x"],
    ["HTTP/1.1 422 Unprocessable Entity\ncontent-type: application/json\n\n{}", `curl -i -X POST http://localhost/x`],
    ['{"id":1}\n500', `curl -s -o /dev/null -w '%{http_code}' -X DELETE http://localhost/items/1`],
    ["curl: (7) Failed to connect to localhost port 8000 after 0 ms: Couldn't connect to server", `${post} | jq .`],
    ["ERROR 404: Not Found.", "wget -q http://localhost/missing"],
  ])("%s from an HTTP client: FAILED", (output, command) => {
    expect(outputErrorSignal(output, command)?.source).toBe("http");
    expect(readOutputIntoOutcome(SUCCEEDED_EXIT_0, output, command).outcome).toBe("FAILED");
  });

  it("a successful response, and an error body from something else, say nothing", () => {
    expect(outputErrorSignal('{"status":"ok","id":7}', post)).toBeNull();
    expect(outputErrorSignal('{"error":null,"data":[]}', post)).toBeNull();
    expect(outputErrorSignal("HTTP/1.1 201 Created\n\n{}", "curl -i -X POST http://x")).toBeNull();
    // Reading a file that holds an error body is no failed request.
    expect(outputErrorSignal('{"status":"error","message":"x"}', "cat fixtures/error.json")).toBeNull();
  });

  it("an HTTP tool's JSON body is read without a command", () => {
    expect(outputErrorSignal('{"status":"error"}', undefined, true)?.source).toBe("http");
  });
});

describe("weaker signals", () => {
  const traceback = 'Traceback (most recent call last):\n  File "run.py", line 3, in <module>\n    main()\nValueError: bad';

  it("a traceback leaves the outcome UNKNOWN, saying why", () => {
    const read = readOutputIntoOutcome(SUCCEEDED_EXIT_0, traceback, "python run.py 2>&1 | tail -5");
    expect(read).toEqual({
      outcome: "UNKNOWN",
      doubt: "the runtime reported exit 0, but a traceback in the output reports an error: Traceback (most recent call last):",
    });
  });

  it("a package manager's error fails the command that ran it, and only doubts one that did not", () => {
    const npm = "npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/nope";
    expect(readOutputIntoOutcome(SUCCEEDED_EXIT_0, npm, "npm install nope 2>&1 | tail").outcome).toBe("FAILED");
    expect(readOutputIntoOutcome(SUCCEEDED_EXIT_0, npm, "cat npm-debug.log").outcome).toBe("UNKNOWN");
    expect(
      readOutputIntoOutcome(SUCCEEDED_EXIT_0, "E: Unable to locate package nope", "apt-get install -y nope | cat").outcome,
    ).toBe("FAILED");
  });

  it("without an exit code a decisive error leaves the outcome UNKNOWN: nothing the runtime said is kept against it", () => {
    expect(readOutputIntoOutcome({ outcome: "SUCCEEDED" }, "bash: x: command not found", "x").outcome).toBe("UNKNOWN");
  });

  it("only a SUCCEEDED call is read: the runtime's failure, refusal or silence stands", () => {
    for (const outcome of ["FAILED", "DECLINED", "NOT_RUN", "UNKNOWN"] as const)
      expect(readOutputIntoOutcome({ outcome, exitCode: 1 }, "bash: x: command not found", "x")).toEqual({ outcome });
  });
});

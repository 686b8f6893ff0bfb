import { describe, expect, it } from "vitest";
import { analyzeSpan } from "./analyze";
import { classifySpan } from "./classify";
import { MAX_SCAN_BYTES } from "./atoms";
import type { Atom, SpanInput } from "./types";

const enc = new TextEncoder();
const span = (body: string, extra: Partial<SpanInput> = {}): SpanInput => ({ body: enc.encode(body), kind: "MESSAGE", ...extra });

describe("classifySpan", () => {
  it("narrative: no atoms, no effect", () => {
    const c = analyzeSpan(span("Sounds good, I'll start with the tests.")).classification;
    expect(c).toEqual({
      class: "NARRATIVE",
      reasons: [{ class: "NARRATIVE", rule: "narrative.no-atoms", detail: expect.any(String) }],
      effects: [],
    });
  });

  it("structured: atoms, with a count by kind and the atoms' indexes", () => {
    const { atoms, classification } = analyzeSpan(span("Read /etc/hosts and 2 files in 30ms."));
    expect(classification.class).toBe("STRUCTURED");
    const r = classification.reasons.find((x) => x.rule === "atoms.structured")!;
    expect(r.detail).toBe("carries 2 numbers, 1 path");
    expect(r.atomIndexes).toEqual(atoms.map((_, i) => i));
  });

  it("side-effecting: reasons per rule, naming targets, pointing at the atoms", () => {
    const input = span(JSON.stringify({ command: "rm -rf /srv/a /srv/b && echo x >> /etc/motd" }), {
      kind: "TOOL_CALL",
      toolName: "Bash",
    });
    const { atoms, classification } = analyzeSpan(input);
    expect(classification.class).toBe("SIDE_EFFECTING");
    expect(classification.effects).toEqual(["FILE_DELETE", "FILE_WRITE"]);
    const del = classification.reasons.find((r) => r.rule === "shell.file-delete")!;
    expect(del.detail).toBe("the command deletes files: /srv/a, /srv/b");
    expect(del.atomIndexes!.map((i) => atoms[i]!.normalized)).toEqual(expect.arrayContaining(["/srv/a", "/srv/b"]));
  });

  it("a nonzero exit code keeps the span side-effecting and says so", () => {
    const c = analyzeSpan(
      span(JSON.stringify({ command: "rm /etc/locked" }), { kind: "TOOL_CALL", toolName: "Bash", exitCode: 1 }),
    ).classification;
    expect(c.class).toBe("SIDE_EFFECTING");
    expect(c.reasons.find((r) => r.rule === "exit.nonzero")?.detail).toMatch(/^exit code 1:/);
  });

  it("a tool result is never side-effecting on its own", () => {
    const c = analyzeSpan(
      span("Successfully installed requests-2.32.3\n", { kind: "TOOL_RESULT", toolName: "Bash", exitCode: 0 }),
    ).classification;
    expect(c.class).toBe("STRUCTURED");
    expect(c.reasons.map((r) => r.rule)).toEqual(expect.arrayContaining(["result.reports-mutation", "result.exit-code"]));
  });

  it("a read-only tool call is structured even with no atoms", () => {
    const c = classifySpan({ body: new Uint8Array(), kind: "TOOL_CALL", toolName: "Glob" }, []);
    expect(c.class).toBe("STRUCTURED");
    expect(c.reasons[0]!.rule).toBe("tool.read-only");
  });

  it("hints decide when the body holds nothing of the call", () => {
    const input: SpanInput = {
      body: enc.encode("(rendered elsewhere)"),
      kind: "TOOL_CALL",
      toolName: "Bash",
      toolInput: { command: "sudo reboot" },
    };
    const c = analyzeSpan(input).classification;
    expect(c.class).toBe("SIDE_EFFECTING");
    expect(c.effects).toEqual(expect.arrayContaining(["SERVICE_CONTROL", "PRIVILEGE_ESCALATION"]));
  });

  it("a tool call whose tool cannot be identified is side-effecting", () => {
    const c = analyzeSpan({ body: enc.encode('{"x": 1}'), kind: "TOOL_CALL" }).classification;
    expect(c.class).toBe("SIDE_EFFECTING");
    expect(c.reasons[0]!.rule).toBe("tool.unidentified");
  });

  it("negated atoms carry no effect and do not count as effects", () => {
    const atoms: Atom[] = [
      {
        kind: "PATH",
        text: "/etc/hosts",
        normalized: "/etc/hosts",
        byteStart: 0,
        byteEnd: 10,
        negated: true,
        effect: "FILE_WRITE",
      },
    ];
    expect(classifySpan({ body: enc.encode("/etc/hosts"), kind: "MESSAGE" }, atoms).class).toBe("STRUCTURED");
  });

  it("classifies stored atoms without rules (e.g. reloaded from a database)", () => {
    const atoms: Atom[] = [{ kind: "PATH", text: "/a", normalized: "/a", byteStart: 0, byteEnd: 2, effect: "FILE_WRITE" }];
    const c = classifySpan({ body: enc.encode("/a"), kind: "TOOL_CALL", toolName: "Write" }, atoms);
    expect(c.reasons[0]).toMatchObject({ class: "SIDE_EFFECTING", rule: "effect.file_write", atomIndexes: [0] });
  });

  it("a body longer than the scan limit is at least structured", () => {
    const big = new Uint8Array(MAX_SCAN_BYTES + 10).fill(0x20);
    const c = analyzeSpan({ body: big, kind: "TOOL_RESULT" }).classification;
    expect(c.class).toBe("STRUCTURED");
    expect(c.reasons.map((r) => r.rule)).toContain("scan.truncated");
  });

  it("atom indexes in a reason are capped", () => {
    const body = Array.from({ length: 300 }, (_, i) => `/srv/f${i}.txt`).join(" ");
    const c = analyzeSpan(span(body)).classification;
    expect(c.reasons.find((r) => r.rule === "atoms.structured")!.atomIndexes).toHaveLength(100);
  });
});

describe("hinted tool calls", () => {
  it("an argument called name does not turn the arguments into another call", () => {
    const input: SpanInput = {
      body: enc.encode(JSON.stringify({ name: "Checkout bug", input: "steps to reproduce" })),
      kind: "TOOL_CALL",
      toolName: "mcp__tracker__create_issue",
    };
    const { atoms, classification } = analyzeSpan(input);
    // An MCP tool whose name leads with a write verb acts through its server (tools.ts, mcp-tools.ts).
    expect(classification.reasons[0]!.rule).toBe("tool.mcp-write");
    expect(atoms.find((a) => a.kind === "TOOL_CALL")).toBeUndefined();
    expect(atoms.filter((a) => a.kind === "TOOL_ARG").map((a) => a.argName)).toEqual(["name", "input"]);
  });
});

describe("tool calls the first measured corpus misjudged", () => {
  const call = (toolName: string, toolInput: Record<string, unknown>, body = JSON.stringify(toolInput)) =>
    analyzeSpan({ kind: "TOOL_CALL", body: enc.encode(body), toolName, toolInput }).classification;

  it("an empty Codex write_stdin only polls the running process: not side-effecting", () => {
    const poll = { session_id: 72266, chars: "", yield_time_ms: 1000, max_output_tokens: 30000 };
    expect(call("write_stdin", poll).class).toBe("STRUCTURED");
    expect(call("write_stdin", { session_id: 7 }).class).toBe("STRUCTURED");
    // From the runtime's report alone (the body does not hold the arguments).
    expect(call("write_stdin", poll, "(rendered elsewhere)").effects).toEqual([]);
    // Writing to the process is still a mutation, with or without the body's arguments.
    expect(call("write_stdin", { session_id: 7, chars: "yes\n" }).class).toBe("SIDE_EFFECTING");
    expect(call("write_stdin", { session_id: 7, chars: "\u0003" }, "(rendered elsewhere)").effects).toEqual(["SHELL_MUTATION"]);
  });

  it("an escalated Codex command is a privilege escalation, however read-only the command", () => {
    const a = call("exec_command", { cmd: "ls -la", with_escalated_permissions: true, justification: "list" });
    expect(a.class).toBe("SIDE_EFFECTING");
    expect(a.effects).toEqual(["PRIVILEGE_ESCALATION"]);
    expect(a.reasons.map((r) => r.rule)).toContain("tool.escalation");
    const b = call("shell", { command: ["bash", "-lc", "cat x"], sandbox_permissions: "require_escalated" });
    expect(b.effects).toEqual(["PRIVILEGE_ESCALATION"]);
    const hinted = call(
      "shell",
      { command: ["bash", "-lc", "cat x"], sandbox_permissions: "require_escalated" },
      "(rendered elsewhere)",
    );
    expect(hinted.effects).toEqual(["PRIVILEGE_ESCALATION"]);
    // Asking for the default sandbox is no escalation.
    expect(call("exec_command", { cmd: "ls", sandbox_permissions: "use_default", with_escalated_permissions: false }).class).toBe(
      "STRUCTURED",
    );
  });

  it("tools that only look or report are not side-effecting; sub-agents and page interactions are", () => {
    expect(call("exit_plan_mode", { plan: "## Plan\n1. edit /w/a.ts" }).class).toBe("STRUCTURED");
    expect(call("complete_task", { result: { success: true, summary: "done" } }).class).toBe("STRUCTURED");
    expect(call("google_web_search", { query: "fun fact" }).class).toBe("STRUCTURED");
    expect(call("grep_search", { pattern: "MemoryMonitor", path: "." }).class).toBe("STRUCTURED");
    expect(call("navigate_page", { url: "https://example.com" }).class).toBe("STRUCTURED");
    expect(call("read_mcp_resource", { uri: "test://resource1" }).class).toBe("STRUCTURED");
    expect(call("invoke_agent", { agent_name: "browser_agent", prompt: "open a page" }).effects).toEqual(["PROCESS_SPAWN"]);
    expect(call("click", { selector: "#submit-btn" }).class).toBe("SIDE_EFFECTING");
    expect(call("take_screenshot", {}).class).toBe("SIDE_EFFECTING");
  });
});

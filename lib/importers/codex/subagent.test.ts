import { describe, expect, it } from "vitest";
import { codexImporter } from "./index";
import { codexSubagent } from "./subagent";
import { checkedAgainstWindows, expectAccounted, expectWellFormed, fixture, only } from "../shared/testkit";

const parseCodex = checkedAgainstWindows(codexImporter);

const ID = "019e2000-0000-7000-8000-000000000001";
const PARENT = "019e1fff-0000-7000-8000-000000000002";
const spawn = (fields: Record<string, unknown>) => ({ subagent: { thread_spawn: fields } });

describe("codexSubagent: a session_meta's source", () => {
  it("reads a thread-spawned subagent as codex-rs serializes it: the thread id, role, parent and depth", () => {
    const source = spawn({
      parent_thread_id: PARENT,
      depth: 2,
      agent_path: null,
      agent_nickname: "Hypatia",
      agent_role: "explorer",
    });
    expect(codexSubagent({ id: ID, source })).toEqual({ agentId: ID, agentType: "explorer", parentThreadId: PARENT, depth: 2 });
  });

  it("reads the role under its older name, or from session_meta's own fields when the source names none", () => {
    expect(
      codexSubagent({ id: ID, source: spawn({ parent_thread_id: PARENT, depth: 1, agent_type: "worker" }) })?.agentType,
    ).toBe("worker");
    const bare = spawn({ parent_thread_id: PARENT, depth: 1, agent_role: null });
    expect(codexSubagent({ id: ID, source: bare, agent_role: "reviewer" })?.agentType).toBe("reviewer");
    expect(codexSubagent({ id: ID, source: bare, agent_type: "default" })?.agentType).toBe("default");
    expect(codexSubagent({ id: ID, source: bare })).toEqual({ agentId: ID, parentThreadId: PARENT, depth: 1 });
  });

  it("gives every other source, and shapes it does not know, no identity", () => {
    const others: unknown[] = [
      "cli",
      "vscode",
      "exec",
      "mcp",
      "unknown",
      "interactive",
      { custom: "atlas" },
      { internal: "memory_consolidation" },
      { subagent: "review" },
      { subagent: "compact" },
      { subagent: "memory_consolidation" },
      { subagent: { other: "guardian" } },
      { subagent: { thread_spawn: "not an object" } },
      { subagent: null },
      { sub_agent: { thread_spawn: { parent_thread_id: PARENT, depth: 1 } } },
      null,
      42,
      [],
      undefined,
    ];
    for (const source of others) expect(codexSubagent({ id: ID, source })).toBeUndefined();
  });

  it("needs the session's own id: a thread_spawn source in a meta without one gives no identity", () => {
    expect(codexSubagent({ source: spawn({ parent_thread_id: PARENT, depth: 1 }) })).toBeUndefined();
    expect(codexSubagent({ id: "", source: spawn({ parent_thread_id: PARENT, depth: 1 }) })).toBeUndefined();
  });
});

describe("Codex importer: a thread-spawned subagent's own rollout", () => {
  const plain = only(parseCodex(fixture("codex/codemie-tui-0.125.jsonl")));
  const result = parseCodex(fixture("codex/codemie-tui-0.125-subagent.jsonl.gz"));
  const sub = only(result);

  it("attributes every span to the subagent, by its thread id and role, and changes nothing else", () => {
    expectWellFormed(result);
    expectAccounted(result);
    expect(sub.externalId).toBe(plain.externalId);
    expect(sub.spans.length).toBeGreaterThan(100);
    expect(sub.spans.every((s) => s.agentId === sub.externalId && s.agentType === "explorer")).toBe(true);
    expect(new Set(sub.spans.map((s) => s.kind))).toEqual(new Set(["MESSAGE", "TOOL_CALL", "TOOL_RESULT"]));
    const withoutAgent = sub.spans.map(({ agentId: _id, agentType: _type, ...rest }) => rest);
    expect(withoutAgent).toEqual(plain.spans);
    expect(plain.spans.some((s) => s.agentId !== undefined)).toBe(false);
  });

  const line = (timestamp: string, type: string, payload: unknown) => JSON.stringify({ timestamp, type, payload });
  const rollout = (source: unknown) =>
    new TextEncoder().encode(
      [
        line("2026-06-01T00:00:00Z", "session_meta", { id: ID, timestamp: "2026-06-01T00:00:00Z", cwd: "/w", source }),
        line("2026-06-01T00:00:01Z", "response_item", {
          type: "message",
          role: "user",
          content: [{ type: "input_text", text: "list files" }],
        }),
        line("2026-06-01T00:00:02Z", "response_item", {
          type: "function_call",
          name: "shell",
          arguments: JSON.stringify({ command: ["ls"] }),
          call_id: "c1",
        }),
        line("2026-06-01T00:00:03Z", "response_item", { type: "function_call_output", call_id: "c1", output: "a\nb" }),
      ].join("\n"),
    );

  it("imports a rollout of any other source as before: whole, accounted, every span the main agent's", () => {
    const reference = only(parseCodex(rollout("cli")));
    for (const source of ["exec", "vscode", { subagent: "review" }, { subagent: { other: "guardian" } }, { custom: "x" }, 7]) {
      const parsed = parseCodex(rollout(source));
      expectAccounted(parsed);
      expect(parsed.records.skipped).toBe(0);
      expect(only(parsed).spans).toEqual(reference.spans);
      expect(only(parsed).spans.every((s) => s.agentId === undefined && s.agentType === undefined)).toBe(true);
    }
    const spawned = only(parseCodex(rollout(spawn({ parent_thread_id: PARENT, depth: 1 }))));
    expect(spawned.spans.map((s) => [s.agentId, s.agentType])).toEqual(reference.spans.map(() => [ID, undefined]));
  });
});

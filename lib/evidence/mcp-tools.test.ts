/** MCP tools by the verb of their name, as runtimes name them (the tools of real sessions' Linear, IDE and docs servers). */
import { describe, expect, it } from "vitest";
import { mcpToolParts, mcpVerb } from "./mcp-tools";
import { toolKnowledge } from "./tools";
import { analyzeSpan } from "./analyze";

describe("an MCP tool's name", () => {
  it("is split into its server and tool, as each runtime writes it", () => {
    expect(mcpToolParts("mcp__linear-server__create_issue")).toEqual({ server: "linear-server", tool: "create_issue" });
    expect(mcpToolParts("github__create_pull_request")).toEqual({ server: "github", tool: "create_pull_request" });
    expect(mcpToolParts("linear.get_issue")).toEqual({ server: "linear", tool: "get_issue" });
    expect(mcpToolParts("create_issue")).toEqual({ tool: "create_issue" });
  });

  it("leads with a write verb, a read verb, or neither", () => {
    for (const t of [
      "create_issue",
      "update_document",
      "create_comment",
      "postMessage",
      "send-email",
      "merge_pull_request",
      "delete_label",
    ])
      expect(mcpVerb(t), t).toBe("write");
    for (const t of ["get_issue", "list_projects", "search_documentation", "query-docs", "getDiagnostics", "helm_list_releases"])
      expect(mcpVerb(t), t).toBe("read");
    for (const t of [
      "resolve-library-id",
      "executeCode",
      "browser_click",
      "run_query",
      "write_file",
      "edit_lines",
      "extract_images",
    ])
      expect(mcpVerb(t), t).toBeNull();
  });
});

describe("MCP tools in the tool table", () => {
  it("a write verb is a network mutation (tool.mcp-write), in every runtime's naming", () => {
    for (const name of ["mcp__linear-server__create_issue", "linear__create_issue", "linear.create_issue", "create_issue"]) {
      expect(toolKnowledge(name), name).toMatchObject({ kind: "remote-write", family: "mcp" });
      const { classification } = analyzeSpan({
        body: new TextEncoder().encode('{"title":"x"}'),
        kind: "TOOL_CALL",
        toolName: name,
      });
      expect(classification).toMatchObject({ class: "SIDE_EFFECTING", effects: ["NETWORK_MUTATION"] });
    }
  });

  it("a read verb is read-only; anything else stays unknown", () => {
    expect(toolKnowledge("mcp__linear-server__list_issues").kind).toBe("read");
    expect(toolKnowledge("mcp__ide__getDiagnostics").kind).toBe("read");
    expect(toolKnowledge("mcp__context7__resolve-library-id")).toMatchObject({ kind: "unknown", known: false });
    expect(toolKnowledge("mcp__ide__executeCode")).toMatchObject({ kind: "unknown", known: false });
  });

  it("a trusted server's generic names keep their meaning", () => {
    expect(toolKnowledge("mcp__filesystem__write_file").kind).toBe("write");
    expect(toolKnowledge("mcp__filesystem__delete_file").kind).toBe("delete");
  });

  it("current runtimes' built-in tools are known", () => {
    for (const [name, kind] of [
      ["TaskCreate", "internal"],
      ["TaskUpdate", "internal"],
      ["TaskList", "internal"],
      ["Skill", "internal"],
      ["LSP", "read"],
      ["TaskStop", "process"],
      ["replace", "write"],
      ["search_file_content", "read"],
      ["delegate_to_agent", "spawn"],
      ["spawn_agent", "spawn"],
      ["wait_agent", "internal"],
    ] as const)
      expect(toolKnowledge(name), name).toMatchObject({ kind, known: true });
  });
});

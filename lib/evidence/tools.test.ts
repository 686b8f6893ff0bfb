import { describe, expect, it } from "vitest";
import { toolKnowledge } from "./tools";

describe("toolKnowledge", () => {
  it.each([
    ["Read", "read"],
    ["Write", "write"],
    ["Edit", "write"],
    ["Bash", "shell"],
    ["TodoWrite", "internal"],
    ["Task", "spawn"],
    ["shell", "shell"],
    ["exec_command", "shell"],
    ["apply_patch", "patch"],
    ["update_plan", "internal"],
    ["str_replace_editor", "editor"],
    ["run_ipython", "code"],
    ["browse_interactive", "unknown"],
    ["find_file", "read"],
    ["submit", "submit"],
    ["write_file", "write"],
    ["WriteFile", "write"],
    ["functions.read_file", "read"],
    ["http_request", "http"],
    ["mcp__filesystem__move_file", "move"],
  ])("%s is %s", (name, kind) => {
    expect(toolKnowledge(name).kind).toBe(kind);
  });

  it("a tool of an unknown MCP server is known by its verb alone, and unknown when the verb says nothing", () => {
    expect(toolKnowledge("mcp__acme__read_file")).toMatchObject({ kind: "read", family: "mcp" });
    expect(toolKnowledge("mcp__acme__run_report")).toMatchObject({ kind: "unknown", known: false });
    // A write on a file of an unknown server is the file system's write, not a request: unknown.
    expect(toolKnowledge("mcp__acme__write_file")).toMatchObject({ kind: "unknown", known: false });
  });

  it("readOnlyHint makes an unknown tool read-only, never a known writer", () => {
    expect(toolKnowledge("mcp__acme__list", { readOnlyHint: true })).toMatchObject({ kind: "read", annotated: "read-only" });
    expect(toolKnowledge("write_file", { readOnlyHint: true }).kind).toBe("write");
  });

  it("destructiveHint or readOnlyHint: false make a reader side-effecting", () => {
    expect(toolKnowledge("read_file", { destructiveHint: true })).toMatchObject({ kind: "unknown", annotated: "destructive" });
    expect(toolKnowledge("Grep", { readOnlyHint: false }).kind).toBe("unknown");
  });
});

describe("names from span bodies never reach Object.prototype", () => {
  it.each(["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf"])("%s is an unknown tool", (name) => {
    expect(toolKnowledge(name)).toMatchObject({ kind: "unknown", known: false });
  });
});

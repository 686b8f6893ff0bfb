/** What a tool does, as the tool table (tools.ts) and the runtimes' own tool lists (runtime-tools.ts) say it. */

export type ToolKind =
  | "read" // reads only
  | "internal" // the agent's own bookkeeping: plans, todos, thoughts, final answers
  | "write" // writes the files named by pathArgs
  | "delete"
  | "move"
  | "editor" // a file editor whose sub-command decides (view reads, the rest write)
  | "shell" // runs a shell command: see shell/analyze.ts
  | "patch" // applies a patch: the files it names
  | "http" // HTTP request: mutates unless GET/HEAD/OPTIONS
  | "sql" // runs SQL: writes when the statement writes
  | "vcs-commit"
  | "vcs-push"
  | "code" // runs code (a notebook cell, an interpreter)
  | "process" // signals or feeds a running process
  | "spawn" // starts a sub-agent
  | "submit" // ends the run by submitting its changes
  | "agent-cli" // a bare command line in the SWE-agent style
  | "remote-write" // acts through a remote service (an MCP server's write verb)
  | "unknown";

export interface ToolProfile {
  kind: ToolKind;
  /** Which runtime's vocabulary the name came from, for the UI. */
  family: string;
  /** Arguments naming the file(s) the tool reads or changes. */
  pathArgs?: readonly string[];
  /** Folders the tool may remove files under, beside what it writes (a restore's new files). */
  deleteArgs?: readonly string[];
  /** For copies: arguments naming the source(s), read only. */
  readArgs?: readonly string[];
  /** Arguments holding a shell command (a string, or an argv array). */
  commandArgs?: readonly string[];
  /** Arguments holding the working directory. */
  cwdArgs?: readonly string[];
  /** Arguments holding file content (scanned as data, not as the agent's claims). */
  contentArgs?: readonly string[];
  patchArgs?: readonly string[];
  urlArgs?: readonly string[];
  methodArgs?: readonly string[];
  /** Arguments that, when present, make an HTTP request a write (a body). */
  bodyArgs?: readonly string[];
  sqlArgs?: readonly string[];
  /** Editors: the argument naming the sub-command, and the sub-commands that only read. */
  editorCommandArg?: string;
  readOnlyCommands?: readonly string[];
  /**
   * Process tools: the arguments holding what is written to the process's stdin. A call that
   * writes nothing (absent or empty) only polls the running process for output: a read.
   */
  stdinArgs?: readonly string[];
  /**
   * Arguments by which a call asks to run outside the sandbox (Codex: with_escalated_permissions,
   * sandbox_permissions): a true or "require_escalated" value is a privilege escalation.
   */
  escalationArgs?: readonly string[];
  /** Rule id when it differs from the kind's default ("tool.edit" for an edit tool that writes). */
  rule?: string;
}

/**
 * SWE-agent's editor commands, which its trajectories record as plain command lines
 * ("open src/x.py 40", "create repro.py", "edit 12:14 ... end_of_edit", "submit"). Active only
 * for command-line tool calls, where these names mean these tools (elsewhere `open` is the
 * desktop opener and runs as an unknown command).
 */
import type { Word } from "../tokenize";
import { effect, type Handler } from "../types";
import { own } from "../../own";

/** Read-only navigation and search; which operand (if any) is a path. */
const READS: Record<string, (args: Word[]) => Word[]> = {
  open: (a) => a.slice(0, 1),
  goto: () => [],
  scroll_up: () => [],
  scroll_down: () => [],
  search_file: (a) => a.slice(1, 2),
  search_dir: (a) => a.slice(1, 2),
  find_file: (a) => a.slice(1, 2),
  filemap: (a) => a.slice(0, 1),
  // The cursor editor's selection, and the CTF tools that print a binary's disassembly or
  // decompilation (their Ghidra project lives in a scratch directory, not in the task's state).
  set_cursors: () => [],
  decompile: (a) => a.filter((w) => !w.value.startsWith("-")).slice(-1),
  disassemble: (a) => a.filter((w) => !w.value.startsWith("-")).slice(-1),
};

/** The CTF tools that open, feed and close a connection to a remote service. */
const CONNECT = new Set(["connect_start", "connect_sendline", "connect_exec", "connect_stop"]);

export const AGENT_COMMANDS = new Set([
  ...Object.keys(READS),
  ...CONNECT,
  "create",
  "edit",
  "insert",
  "append",
  "submit",
  "str_replace_editor",
]);

export const agentCommand: Handler = (c) => {
  const read = own(READS, c.name);
  if (read) {
    const reads = read(c.args);
    return { findings: [], reads, consumed: c.args.filter((w) => !reads.includes(w)) };
  }
  if (CONNECT.has(c.name)) return { findings: [effect("NETWORK_MUTATION", "shell.network")], consumed: c.args };
  switch (c.name) {
    case "create":
      return { findings: [effect("FILE_WRITE", "agent.create", c.args.slice(0, 1))] };
    case "edit":
    case "insert":
    case "append":
      // Edits the file currently open in the agent's editor: not named in this command.
      return { findings: [effect("FILE_WRITE", "agent.edit")], consumed: c.args };
    case "submit":
      // Stages everything and writes the run's patch: the run's final, committed act.
      return { findings: [effect("SHELL_MUTATION", "agent.submit")], consumed: c.args };
    case "str_replace_editor": {
      const [verb, path] = c.args;
      const rest = c.args.slice(2);
      if (verb?.value === "view") return { findings: [], reads: path ? [path] : [], consumed: [verb, ...rest] };
      return {
        findings: [effect("FILE_WRITE", "tool.edit", path ? [path] : undefined)],
        consumed: [...(verb ? [verb] : []), ...rest],
      };
    }
    default:
      return { findings: [effect("SHELL_MUTATION", "shell.unknown-command")] };
  }
};

/** What shell analysis carries along: where atoms go and where commands run, and one command's parts. */
import type { ScanContext } from "../atoms/context";
import type { AtomSink } from "../atoms/sink";
import type { Text } from "../atoms/text";
import type { Redirect, Word } from "./tokenize";
import type { StdinSource } from "./types";

export interface ShellEnv {
  sink: AtomSink;
  /** Working directory and home; `cwd` moves with `cd`. */
  ctx: ScanContext;
  /** SWE-agent editor commands are known (a bare command-line tool call). */
  agentCommands: boolean;
  depth: number;
}

/** What a command invocation is made of, wherever it came from (a script, a JSON argv array). */
export interface CommandInput {
  words: Word[];
  redirects: Redirect[];
  /** The Text the command's raw range (and its words' raw ranges) refer to. */
  rangeText: Text;
  a: number;
  b: number;
  stdin: StdinSource | null;
  pipedTo: boolean;
  /** Normalised form of the COMMAND atom when the raw range is not shell text (a JSON argv array). */
  normalized?: string;
}

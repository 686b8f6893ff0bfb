/**
 * Shell command analysis on its own, for callers that hold a command line rather than a span
 * (a policy preview, a question about "service-manager commands"): what each simple command
 * does, and the paths, packages and services it touches. Span extraction uses the same analysis
 * (see shell/analyze.ts); this only wraps it around a plain string.
 */
import { toBinaryString } from "./atoms/bytes";
import { DEFAULT_HOME_DIR } from "./atoms/paths";
import { AtomSink, finalizeAtoms } from "./atoms/sink";
import { Text } from "./atoms/text";
import { analyzeScript, primaryFinding } from "./shell/analyze";
import type { Atom, SideEffectKind } from "./types";

export interface ShellAnalysis {
  /** Atoms of the command line; byte ranges index its UTF-8 bytes. */
  atoms: Atom[];
  /** Every effect, in order of first appearance. */
  effects: SideEffectKind[];
  /** The main effect (what a single label for the command would say), if it mutates anything. */
  primary?: { effect: SideEffectKind; rule: string };
  /** True when nothing in it is known to change state. */
  readOnly: boolean;
}

export function analyzeShellCommand(command: string, opts: { cwd?: string; homeDir?: string } = {}): ShellAnalysis {
  const body = new TextEncoder().encode(command);
  const bin = toBinaryString(body);
  const sink = new AtomSink(body, bin, !/[\x80-\xff]/.test(bin));
  const findings = analyzeScript(
    Text.contiguous(bin, 0),
    { sink, ctx: { cwd: opts.cwd, home: opts.homeDir ?? DEFAULT_HOME_DIR }, agentCommands: false, depth: 0 },
    false,
  );
  const effects: SideEffectKind[] = [];
  for (const f of findings) if (!effects.includes(f.effect)) effects.push(f.effect);
  const primary = primaryFinding(findings);
  const out: ShellAnalysis = { atoms: finalizeAtoms(sink.atoms), effects, readOnly: effects.length === 0 };
  if (primary) out.primary = { effect: primary.effect, rule: primary.rule };
  return out;
}

/** What a tool's argument values say of the call: escalation asked for, stdin written or only polled. */
import type { ToolProfile } from "./tool-profile";

/** True when a sandbox-escalation argument's value asks for escalation (true, "require_escalated"). */
export function isEscalationValue(v: unknown): boolean {
  if (v === true) return true;
  return typeof v === "string" && /^(?:true|require_escalated|escalated)$/i.test(v.trim());
}

/**
 * True when a process tool's call writes nothing to the process (its stdin arguments absent or
 * empty): it only reads the output the process produced since. `value` gives an argument's value.
 */
export function isStdinPoll(k: ToolProfile, value: (name: string) => unknown): boolean {
  if (k.kind !== "process" || k.stdinArgs === undefined) return false;
  return k.stdinArgs.every((n) => {
    const v = value(n);
    return v === undefined || v === null || v === "";
  });
}

/**
 * A call of a tool whose effects are not known (UNKNOWN_TOOL: not known to be read-only) may have
 * done anything, so it can never support a NO to a question about side effects (docs/design.md,
 * "A NO carries its completeness case"). It blocks such a question unless the question asks about
 * unknown tools itself (then it is cited), names the tools or commands it is about (an unknown
 * tool is neither), or asks for outcomes the call is known not to have had.
 */
import { outcomeInDoubt, type ToolOutcome } from "../outcomes";
import type { Atom } from "../types";
import type { CompiledPredicate } from "./predicate";

/** The predicate asks about side effects an unknown tool could have had. */
export function unknownToolsCanBlock(p: CompiledPredicate): boolean {
  return (
    p.onSideEffects && !p.effects?.has("UNKNOWN_TOOL") && p.toolNames === null && p.commandRegex === null && p.argNames === null
  );
}

/** The atom says its call is of a tool whose effects are not known. */
export function isUnknownToolAtom(atom: Pick<Atom, "effect" | "negated">): boolean {
  return atom.effect === "UNKNOWN_TOOL" && atom.negated !== true;
}

/** The span (its atoms and its call's outcome) is an unknown tool's call that blocks one of the predicates. */
export function unknownToolBlocks(
  span: { atoms: readonly Atom[]; outcome?: ToolOutcome; exitCode?: number },
  predicates: readonly CompiledPredicate[],
): boolean {
  if (!span.atoms.some(isUnknownToolAtom)) return false;
  return predicates.some(
    (p) =>
      unknownToolsCanBlock(p) &&
      (p.outcomes === null || span.outcome === undefined || p.outcomes.has(span.outcome) || outcomeInDoubt(span)),
  );
}

/** What the blocker says. */
export function unknownToolReason(toolName: string | undefined): string {
  const tool = toolName === undefined ? "a tool" : `${toolName}, a tool`;
  return `it calls ${tool} whose effects are not known (not known to be read-only), so it may have done what the question asks`;
}

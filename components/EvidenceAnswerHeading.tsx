import type { AnswerKind } from "@/lib/evidence/questions";

/**
 * An evidence answer's heading and its empty-scope note, the same on the Evidence page (a server
 * component) and a question job's answer (a client component): props only, no hooks.
 */

/** The answer's badge colour: INSUFFICIENT_EVIDENCE is evidence that was lost, never a reassurance. */
const ANSWER_TONE: Readonly<Record<AnswerKind, "safe" | "lost">> = { YES: "safe", NO: "safe", INSUFFICIENT_EVIDENCE: "lost" };

/** The question's title and the answer in words on its badge (`data-testid="answer"`). */
export function EvidenceAnswerHeading({ title, answer }: { title: string; answer: AnswerKind }) {
  return (
    <h2>
      {title}{" "}
      <span className={`badge ${ANSWER_TONE[answer]}`} data-testid="answer">
        {answer.replace("_", " ")}
      </span>
    </h2>
  );
}

/** Why an answer over an empty scope is INSUFFICIENT_EVIDENCE, not NO; nothing for any other answer. */
export function NoSpansInScopeNote({ answer, noSpansInScope }: { answer: AnswerKind; noSpansInScope: boolean }) {
  if (!noSpansInScope || answer !== "INSUFFICIENT_EVIDENCE") return null;
  return (
    <p className="panel" data-testid="no-spans-in-scope">
      <strong>No spans in scope.</strong> Nothing in the sessions and dates asked about could be checked, so the answer cannot be
      NO: absence is never concluded from an empty scope.
    </p>
  );
}

import type { CompletenessCase } from "@/lib/evidence/questions";

/**
 * The completeness case of an answer: each condition a NO rests on, whether it holds, and what
 * blocks it where it does not. A NO is shown with every condition met; an insufficient answer
 * with the ones that fail, whose spans, gaps and records are listed beside it.
 */
export function CompletenessCaseList({ completeness }: { completeness: CompletenessCase | undefined }) {
  // Answers kept from before the case existed carry none: nothing to show, not a case that holds.
  if (!completeness) return null;
  return (
    <section aria-label="Completeness case" data-testid="completeness-case">
      <h3>{completeness.holds ? "Completeness case: every condition holds" : "Completeness case: not met"}</h3>
      <ul>
        {completeness.conditions.map((c) => (
          <li key={c.id} data-condition={c.id} data-holds={c.holds}>
            {c.holds ? "✓ " : "✗ "}
            {c.statement}
            {c.blockedBy ? <strong> Blocked by {c.blockedBy}.</strong> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

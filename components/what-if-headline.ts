/**
 * The what-if's first line: what the proposal costs within the simulated days, with the current
 * policy's figures beside it, so the owner reads the answer before the charts. Pure and tested.
 */
import { formatCount } from "./format";

interface OutlookFigures {
  days: ReadonlyArray<{ originalsDeleted: number }>;
  questionsAffected: readonly unknown[];
}

export interface HeadlineInput {
  horizonDays: number;
  current: OutlookFigures;
  proposed: OutlookFigures;
  /** The question search stopped at its bounds: the answers counted are a floor. */
  questionsTruncated?: boolean;
}

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;
const deletedOf = (o: OutlookFigures) => o.days.reduce((n, d) => n + d.originalsDeleted, 0);

/** "13 originals deleted, 6 answers turn to insufficient evidence within 30 days (current policy: 2 and 0)." */
export function whatIfHeadline(s: HeadlineInput): string {
  const deleted = deletedOf(s.proposed);
  const answers = s.proposed.questionsAffected.length;
  const floor = s.questionsTruncated ? "at least " : "";
  const turn = answers === 1 ? "turns" : "turn";
  return (
    `${plural(deleted, "original", "originals")} deleted, ${floor}${plural(answers, "answer", "answers")} ${turn} to ` +
    `insufficient evidence within ${plural(s.horizonDays, "day", "days")} (current policy: ` +
    `${formatCount(deletedOf(s.current))} deleted, ${floor}${formatCount(s.current.questionsAffected.length)} insufficient).`
  );
}

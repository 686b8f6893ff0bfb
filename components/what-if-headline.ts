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

/**
 * The headline, one line: "13 originals deleted, 6 answers turn insufficient within 30 days"; and
 * beneath it the current policy's figures over the same days, to compare with.
 */
export function whatIfHeadline(s: HeadlineInput): { headline: string; current: string } {
  const deleted = deletedOf(s.proposed);
  const answers = s.proposed.questionsAffected.length;
  const floor = s.questionsTruncated ? "at least " : "";
  const turn = answers === 1 ? "turns" : "turn";
  return {
    headline:
      `${plural(deleted, "original", "originals")} deleted, ${floor}${plural(answers, "answer", "answers")} ${turn} ` +
      `insufficient within ${plural(s.horizonDays, "day", "days")}`,
    current:
      `Under the current policy: ${plural(deletedOf(s.current), "original", "originals")} deleted, ` +
      `${floor}${plural(s.current.questionsAffected.length, "answer", "answers")} insufficient.`,
  };
}

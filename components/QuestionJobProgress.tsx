"use client";

import { useQuery } from "@tanstack/react-query";
import type { ActionResult } from "@/lib/core/action-result";
import type { QuestionJobJson } from "@/lib/server/questions";
import { EvidenceAnswerHeading, NoSpansInScopeNote } from "./EvidenceAnswerHeading";
import { CompletenessCaseList } from "./CompletenessCaseList";
import { BlockerTable, CitationTable, pinOriginalForm, type SessionTitles } from "./EvidenceAnswerTables";
import { checkedTally, countOf, formatCount } from "./format";

const POLL_MS = 1_000;

type Action = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

async function fetchJob(project: string, id: string): Promise<QuestionJobJson> {
  const response = await fetch(`/api/dashboard/projects/${encodeURIComponent(project)}/evidence/jobs/${encodeURIComponent(id)}`, {
    cache: "no-store",
  });
  if (!response.ok) throw new Error(`The question's job answered ${response.status}`);
  return response.json() as Promise<QuestionJobJson>;
}

/**
 * A question the page handed to a job: how far its judging has come (sessions answered of those in
 * scope, candidate spans judged), polled until it ends, then its answer (words, counts and first
 * rows; transcript text rendered as text) or its error (a failure, or an answer kept in an earlier
 * form that can no longer be shown). Its blockers show what each summary dropped,
 * whether the original is held and what unblocks it, with the page's pin form when the viewer may pin.
 */
export function QuestionJobProgress({
  project,
  initial,
  sessionTitles,
  pin,
}: {
  project: string;
  initial: QuestionJobJson;
  /** Titles of the sessions the page knows, for the answer's tables. */
  sessionTitles: SessionTitles;
  /** The pin server action bound to the project, when the viewer may pin; else the act is named for an operator. */
  pin: Action | null;
}) {
  const { data, error } = useQuery({
    queryKey: ["question-job", project, initial.id],
    queryFn: () => fetchJob(project, initial.id),
    initialData: initial,
    refetchInterval: (query) => (query.state.data?.status === "RUNNING" ? POLL_MS : false),
  });
  if (data.status === "FAILED" || (data.status === "DONE" && !data.answer))
    return (
      <p role="alert" className="error-text" data-testid="question-job-failed">
        The question could not be answered: {data.error ?? "unknown error"}
      </p>
    );
  const answer = data.status === "DONE" ? data.answer : null;
  if (!answer)
    return (
      <section aria-label="Question in progress" className="panel" data-testid="question-job-progress">
        <p aria-live="polite">
          <strong>Still judging.</strong> {formatCount(data.sessionsDone)} of {formatCount(data.sessionsTotal)} sessions answered;{" "}
          {formatCount(data.candidateSpans)} candidate spans judged.
        </p>
        <progress max={Math.max(1, data.sessionsTotal)} value={data.sessionsDone} aria-label="Sessions answered" />
        {error ? <p className="error-text">Progress paused: {(error as Error).message}</p> : null}
      </section>
    );
  return (
    <section aria-label="Answer" data-testid="question-job-answer">
      <EvidenceAnswerHeading title={answer.question.title} answer={answer.answer} />
      <p className="subtitle">
        {countOf(answer.citationCount, "citation")}, {countOf(answer.blockerCount, "blocking span")};{" "}
        {checkedTally(answer.checkedSpans, answer.sessionsInScope)}; scope {answer.scopeComplete ? "complete" : "incomplete"}.
        {answer.citations.length < answer.citationCount || answer.blockers.length < answer.blockerCount
          ? ` The first ${formatCount(Math.max(answer.citations.length, answer.blockers.length))} of each are shown; the export has them all.`
          : ""}
      </p>
      {answer.outcomeSummary ? (
        <p data-testid="attempts">
          <strong>{answer.outcomeSummary}</strong>
        </p>
      ) : null}
      <NoSpansInScopeNote answer={answer.answer} noSpansInScope={answer.noSpansInScope} />
      {answer.answer === "YES" ? null : <CompletenessCaseList completeness={answer.completeness} />}
      {answer.citations.length > 0 ? (
        <CitationTable citations={answer.citations} project={project} sessionTitles={sessionTitles} />
      ) : null}
      {answer.blockers.length > 0 ? (
        <BlockerTable
          blockers={answer.blockers}
          project={project}
          sessionTitles={sessionTitles}
          pinForm={pin ? pinOriginalForm(pin, answer.question.title) : null}
        />
      ) : null}
    </section>
  );
}

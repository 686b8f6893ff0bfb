"use client";

import Link from "next/link";
import { useActionState, useMemo, useRef, useState } from "react";
import { useProjectHref } from "./use-project-href";
import type { ActionResult } from "@/lib/core/action-result";
import type { RetentionPolicy } from "@/lib/evidence/types";
import type { Simulation } from "@/lib/server/what-if";
import { useRefill } from "./ActionForm";
import { PolicyFormInputs } from "./PolicyFormInputs";
import { RetentionWhatIfByClass } from "./RetentionWhatIfByClass";
import { RetentionWhatIfConfirm } from "./RetentionWhatIfConfirm";
import { CurrentVsProposedChart } from "./charts/WhatIfCharts";
import {
  CLASSES,
  formatBytes,
  prepareAnswersSeries,
  prepareLostSeries,
  prepareStorageComparison,
  prepareWhatIfTable,
} from "./charts/what-if-series";
import { answerLabel, formatCount, formatDay, formatTime, humanize } from "./format";
import { ScrollBox } from "./ScrollBox";
import { whatIfHeadline } from "./what-if-headline";

/** A proposal handed to the what-if by a form that shows no preview, simulated on arrival. */
export interface HandedProposal {
  policy: RetentionPolicy;
  /** The version a rollback restores; saved as that rollback when the previewed policy is still its. */
  rollbackOf: number | null;
  simulation: Simulation | null;
  /** The names of the sessions the simulation lists, by id. */
  sessionNames: Record<string, string>;
}

type Action<T> = (previous: ActionResult<T> | null, form: FormData) => Promise<ActionResult<T>>;

/**
 * A simulation, and the version it restores when it is a handed rollback's: the server says whether
 * the simulated policy is still that version's (diffPolicies, as the save checks it).
 */
export type SimulatedProposal = Simulation & { rollbackOf: number | null; sessionNames: Record<string, string> };

/**
 * The what-if: propose a policy, see current and proposed side by side (charts and a table), then
 * save the previewed proposal through a confirmation that shows the diff and asks for a reason.
 */
export function RetentionWhatIf({
  historyHref,
  policy,
  version,
  proposal,
  canSave,
  simulate,
  save,
}: {
  /** The project's policy history page. */
  historyHref: string;
  policy: RetentionPolicy;
  version: number;
  proposal: HandedProposal | null;
  canSave: boolean;
  simulate: Action<SimulatedProposal>;
  save: Action<{ version: number }>;
}) {
  const handed: ActionResult<SimulatedProposal> | null = proposal?.simulation
    ? {
        ok: true,
        message: "Simulated the proposal.",
        data: { ...proposal.simulation, rollbackOf: proposal.rollbackOf, sessionNames: proposal.sessionNames },
      }
    : null;
  const [result, submit, pending] = useActionState(simulate, handed);
  const form = useRef<HTMLFormElement>(null);
  useRefill(form, result);
  const simulation = result?.ok ? result.data : undefined;
  return (
    <section id="what-if" className="panel" aria-label="What-if" style={{ marginBottom: 16 }}>
      <h2 style={{ marginTop: 0 }}>What if the policy changed?</h2>
      <p style={{ marginTop: 0 }}>
        Policy version <strong data-testid="policy-version">{version}</strong>. <Link href={historyHref}>History</Link>
      </p>
      {proposal ? (
        <p role="note">
          {proposal.rollbackOf !== null ? `Rolling back to version ${proposal.rollbackOf}` : "The change made in Settings"} gives
          up evidence: below is what it would delete and break. Save it from here, with a reason.
        </p>
      ) : null}
      <form
        ref={form}
        action={submit}
        aria-label="Proposed policy"
        style={{ display: "flex", gap: 12, flexWrap: "wrap", alignItems: "end" }}
      >
        <PolicyFormInputs policy={simulation?.proposed.policy ?? proposal?.policy ?? policy} />
        {proposal?.rollbackOf != null ? <input type="hidden" name="rollbackOf" value={proposal.rollbackOf} /> : null}
        <label>
          Simulate (days)
          <br />
          <input name="horizonDays" type="number" min={1} max={3650} defaultValue={simulation?.horizonDays ?? 90} />
        </label>
        <button className="button" type="submit" disabled={pending}>
          {pending ? "Simulating…" : "Simulate"}
        </button>
      </form>
      {result && !result.ok ? (
        <p role="alert" className="error-text">
          {result.error.message}
        </p>
      ) : null}
      {simulation ? (
        <SimulationView
          key={simulation.from}
          simulation={simulation}
          sessionNames={simulation.sessionNames}
          version={version}
          rollbackOf={simulation.rollbackOf}
          canSave={canSave}
          save={save}
        />
      ) : null}
    </section>
  );
}

function SimulationView({
  simulation,
  sessionNames,
  version,
  rollbackOf,
  canSave,
  save,
}: {
  simulation: Simulation;
  sessionNames: Record<string, string>;
  version: number;
  rollbackOf: number | null;
  canSave: boolean;
  save: Action<{ version: number }>;
}) {
  const { current, proposed } = simulation;
  const href = useProjectHref();
  const prepared = useMemo(() => {
    const dates = current.days.map((d) => d.date);
    return {
      headline: whatIfHeadline(simulation),
      stored: prepareStorageComparison(current.days, proposed.days),
      lost: prepareLostSeries(current.days, proposed.days),
      answers: prepareAnswersSeries(dates, current.questionsAffected, proposed.questionsAffected),
      table: prepareWhatIfTable(current, proposed),
      year: dates[0] ? Number(dates[0].slice(0, 4)) : undefined,
    };
  }, [simulation, current, proposed]);
  const sessionName = (id: string) => sessionNames[id] ?? `Session ${id.slice(0, 8)}`;
  const [confirming, setConfirming] = useState(false);
  return (
    <section aria-label="Simulation" style={{ marginTop: 16 }}>
      <p className="what-if-headline" data-testid="what-if-headline">
        {prepared.headline.headline}
      </p>
      <p className="subtitle" data-testid="what-if-current">
        {prepared.headline.current}
      </p>
      <CurrentVsProposedChart
        title="Bytes stored: current and proposed policy"
        points={prepared.stored.points}
        yLabel="Bytes stored"
        bytes
      />
      <div style={{ display: "flex", gap: 16, flexWrap: "wrap", marginTop: 12 }}>
        <CurrentVsProposedChart title="Evidence-bearing spans lost (cumulative)" points={prepared.lost} yLabel="Spans lost" />
        <CurrentVsProposedChart title="Answers turned insufficient (cumulative)" points={prepared.answers} yLabel="Answers" />
      </div>
      <p>
        Expiring now (kept less long than their horizon): current policy{" "}
        {CLASSES.map((c) => `${humanize(c)} ${formatCount(current.expiring[c])}`).join(", ")}; proposed{" "}
        {CLASSES.map((c) => `${humanize(c)} ${formatCount(proposed.expiring[c])}`).join(", ")}. Gate decisions of the last 30 days
        replayed: {formatCount(simulation.refusals.decisions)} decisions, refusals {formatCount(simulation.refusals.current)} now,{" "}
        {formatCount(simulation.refusals.proposed)} proposed ({formatCount(simulation.refusals.gained)} gained,{" "}
        {formatCount(simulation.refusals.lost)} lost).
      </p>
      <ScrollBox label="Day by day, scrollable">
        <table className="figures" aria-label="Day by day">
          <thead>
            <tr>
              <th rowSpan={2}>Day</th>
              <th colSpan={4}>Current policy</th>
              <th colSpan={4}>Proposed policy</th>
            </tr>
            <tr>
              {["current", "proposed"].flatMap((p) =>
                ["Originals deleted", "Bytes freed", "Bytes stored", "Answers changed"].map((h) => (
                  <th key={`${p}-${h}`} className="num">
                    {h}
                  </th>
                )),
              )}
            </tr>
          </thead>
          <tbody>
            {prepared.table.rows.map((row) => (
              <tr key={row.date}>
                <td className="when">
                  <time dateTime={row.date}>{row.label}</time>
                </td>
                <td className="num">{formatCount(row.current.deleted)}</td>
                <td className="num">{formatBytes(row.current.freed)}</td>
                <td className="num">{formatBytes(row.current.stored)}</td>
                <td className="num">{formatCount(row.answers.current)}</td>
                <td className="num">{formatCount(row.proposed.deleted)}</td>
                <td className="num">{formatBytes(row.proposed.freed)}</td>
                <td className="num">{formatBytes(row.proposed.stored)}</td>
                <td className="num">{formatCount(row.answers.proposed)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
      <h3>By class</h3>
      <RetentionWhatIfByClass simulation={simulation} sessionName={sessionName} sessionHref={(id) => href(`/sessions/${id}`)} />
      <h3>Answers that change under the proposal</h3>
      {proposed.questionsAffected.length === 0 ? (
        <p>No evidence question changes its answer within {simulation.horizonDays} days.</p>
      ) : (
        <ScrollBox label="Answers affected, scrollable">
          <table className="figures" aria-label="Answers affected">
            <thead>
              <tr>
                <th>Question</th>
                <th>Session</th>
                <th>From</th>
                <th>To</th>
                <th>When</th>
                <th>Spans responsible</th>
              </tr>
            </thead>
            <tbody>
              {proposed.questionsAffected.map((q) => (
                <tr key={`${q.questionId}/${q.sessionId}`}>
                  <td>{q.questionTitle}</td>
                  <td>
                    <Link href={href(`/sessions/${q.sessionId}`)}>{sessionName(q.sessionId)}</Link>
                  </td>
                  <td>{answerLabel(q.from)}</td>
                  <td>{answerLabel(q.to)}</td>
                  <td className="when">
                    <time dateTime={q.at} title={formatTime(new Date(q.at))}>
                      {formatDay(q.at, prepared.year)}
                    </time>
                  </td>
                  <td>
                    {q.spanIds.map((id, i) => (
                      <Link
                        key={id}
                        href={href(`/spans/${id}`)}
                        style={{ marginRight: 6 }}
                        aria-label={`Span ${i + 1} of ${sessionName(q.sessionId)}`}
                      >
                        {`span ${i + 1}`}
                      </Link>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
      {simulation.questionsTruncated ? <p>Only the sessions whose evidence goes soonest were judged; more may change.</p> : null}
      {canSave && simulation.changes.length > 0 ? (
        confirming ? (
          <RetentionWhatIfConfirm simulation={simulation} version={version} rollbackOf={rollbackOf} save={save} />
        ) : (
          <button className="button" type="button" onClick={() => setConfirming(true)}>
            Save this policy
          </button>
        )
      ) : null}
    </section>
  );
}

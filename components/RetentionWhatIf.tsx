"use client";

import Link from "next/link";
import { useActionState, useMemo, useRef, useState } from "react";
import { useProjectHref } from "./use-project-href";
import type { ActionResult } from "@/lib/core/action-result";
import type { RetentionPolicy } from "@/lib/evidence/types";
import type { Simulation } from "@/lib/server/what-if";
import { useRefill } from "./ActionForm";
import { CurrentVsProposedChart, StoredBytesChart } from "./charts/WhatIfCharts";
import {
  formatBytes,
  prepareAnswersSeries,
  prepareLostSeries,
  prepareStoredSeries,
  prepareWhatIfTable,
} from "./charts/what-if-series";
import { formatCount, formatTime, humanize } from "./format";

type Action<T> = (previous: ActionResult<T> | null, form: FormData) => Promise<ActionResult<T>>;

const CLASSES = ["NARRATIVE", "STRUCTURED", "SIDE_EFFECTING"] as const;
const TTL_FIELD = { NARRATIVE: "ttlNarrative", STRUCTURED: "ttlStructured", SIDE_EFFECTING: "ttlSideEffecting" } as const;

/** The policy's fields as form inputs (the proposal's, or hidden copies of the previewed one). */
function PolicyInputs({ policy, hidden }: { policy: RetentionPolicy; hidden?: boolean }) {
  const prefixes = policy.systemConfigPrefixes.join("\n");
  if (hidden) {
    return (
      <>
        <input type="hidden" name="evidenceHorizonDays" value={policy.evidenceHorizonDays} />
        {CLASSES.map((c) => (
          <input key={c} type="hidden" name={TTL_FIELD[c]} value={policy.ttlDays[c]} />
        ))}
        {policy.evidenceWorkloads ? <input type="hidden" name="evidenceWorkloads" value="on" /> : null}
        <input type="hidden" name="systemConfigPrefixes" value={prefixes} />
      </>
    );
  }
  return (
    <>
      <label>
        Evidence horizon (days)
        <br />
        <input name="evidenceHorizonDays" type="number" min={1} max={36500} defaultValue={policy.evidenceHorizonDays} required />
      </label>
      {CLASSES.map((c) => (
        <label key={c}>
          {humanize(c)} TTL (days)
          <br />
          <input name={TTL_FIELD[c]} type="number" min={0} max={36500} defaultValue={policy.ttlDays[c]} required />
        </label>
      ))}
      <label style={{ alignSelf: "center" }}>
        <input name="evidenceWorkloads" type="checkbox" value="on" defaultChecked={policy.evidenceWorkloads} /> Evidence workloads
      </label>
      <label style={{ flexBasis: "100%" }}>
        System-config path prefixes (one per line; removing one needs a reason)
        <br />
        <textarea name="systemConfigPrefixes" rows={6} cols={60} defaultValue={prefixes} className="mono" />
      </label>
    </>
  );
}

/**
 * The what-if: propose a policy, see current and proposed side by side (charts and a table), then
 * save the previewed proposal through a confirmation that shows the diff and asks for a reason.
 */
export function RetentionWhatIf({
  historyHref,
  policy,
  version,
  canSave,
  simulate,
  save,
}: {
  /** The project's policy history page. */
  historyHref: string;
  policy: RetentionPolicy;
  version: number;
  canSave: boolean;
  simulate: Action<Simulation>;
  save: Action<{ version: number }>;
}) {
  const [result, submit, pending] = useActionState(simulate, null);
  const form = useRef<HTMLFormElement>(null);
  useRefill(form, result);
  const simulation = result?.ok ? result.data : undefined;
  return (
    <section className="panel" aria-label="What-if" style={{ marginBottom: 16 }}>
      <h2 style={{ marginTop: 0 }}>What if the policy changed?</h2>
      <p style={{ marginTop: 0 }}>
        Policy version <strong data-testid="policy-version">{version}</strong>. <Link href={historyHref}>History</Link>
      </p>
      <form
        ref={form}
        action={submit}
        aria-label="Proposed policy"
        style={{ display: "flex", gap: 12, flexWrap: "wrap", alignItems: "end" }}
      >
        <PolicyInputs policy={simulation?.proposed.policy ?? policy} />
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
        <SimulationView key={simulation.from} simulation={simulation} version={version} canSave={canSave} save={save} />
      ) : null}
    </section>
  );
}

function SimulationView({
  simulation,
  version,
  canSave,
  save,
}: {
  simulation: Simulation;
  version: number;
  canSave: boolean;
  save: Action<{ version: number }>;
}) {
  const { current, proposed } = simulation;
  const href = useProjectHref();
  const prepared = useMemo(() => {
    const dates = current.days.map((d) => d.date);
    return {
      storedCurrent: prepareStoredSeries(current.days),
      storedProposed: prepareStoredSeries(proposed.days),
      lost: prepareLostSeries(current.days, proposed.days),
      answers: prepareAnswersSeries(dates, current.questionsAffected, proposed.questionsAffected),
      table: prepareWhatIfTable(current, proposed),
    };
  }, [current, proposed]);
  const [confirming, setConfirming] = useState(false);
  return (
    <section aria-label="Simulation" style={{ marginTop: 16 }}>
      <div style={{ display: "flex", gap: 16, flexWrap: "wrap" }}>
        <StoredBytesChart title="Stored bytes by class: current policy" series={prepared.storedCurrent} />
        <StoredBytesChart title="Stored bytes by class: proposed policy" series={prepared.storedProposed} />
      </div>
      <div style={{ display: "flex", gap: 16, flexWrap: "wrap", marginTop: 12 }}>
        <CurrentVsProposedChart title="Evidence-bearing spans lost (cumulative)" points={prepared.lost} />
        <CurrentVsProposedChart title="Answers turned insufficient (cumulative)" points={prepared.answers} />
      </div>
      <p>
        Expiring now (TTL before horizon): current{" "}
        {CLASSES.map((c) => `${humanize(c)} ${formatCount(current.expiring[c])}`).join(", ")}; proposed{" "}
        {CLASSES.map((c) => `${humanize(c)} ${formatCount(proposed.expiring[c])}`).join(", ")}. Gate decisions of the last 30 days
        replayed: {formatCount(simulation.refusals.decisions)} decisions, refusals {formatCount(simulation.refusals.current)} now,{" "}
        {formatCount(simulation.refusals.proposed)} proposed ({formatCount(simulation.refusals.gained)} gained,{" "}
        {formatCount(simulation.refusals.lost)} lost).
      </p>
      <table aria-label="Day by day">
        <thead>
          <tr>
            <th rowSpan={2}>Day</th>
            <th colSpan={4}>Current</th>
            <th colSpan={4}>Proposed</th>
          </tr>
          <tr>
            {["current", "proposed"].flatMap((p) =>
              ["Originals deleted", "Bytes freed", "Bytes stored", "Answers changed"].map((h) => <th key={`${p}-${h}`}>{h}</th>),
            )}
          </tr>
        </thead>
        <tbody>
          {prepared.table.rows.map((row) => (
            <tr key={row.date}>
              <td className="mono">{row.date}</td>
              <td>{formatCount(row.current.deleted)}</td>
              <td>{formatBytes(row.current.freed)}</td>
              <td>{formatBytes(row.current.stored)}</td>
              <td>{formatCount(row.answers.current)}</td>
              <td>{formatCount(row.proposed.deleted)}</td>
              <td>{formatBytes(row.proposed.freed)}</td>
              <td>{formatBytes(row.proposed.stored)}</td>
              <td>{formatCount(row.answers.proposed)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Answers that change under the proposal</h3>
      {proposed.questionsAffected.length === 0 ? (
        <p>No evidence question changes its answer within {simulation.horizonDays} days.</p>
      ) : (
        <table aria-label="Answers affected">
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
                  <Link href={href(`/sessions/${q.sessionId}`)} className="mono">
                    {q.sessionId.slice(0, 8)}
                  </Link>
                </td>
                <td>{q.from}</td>
                <td>{q.to}</td>
                <td>{formatTime(new Date(q.at))}</td>
                <td className="mono">
                  {q.spanIds.map((id) => (
                    <Link key={id} href={href(`/spans/${id}`)} style={{ marginRight: 6 }}>
                      {id.slice(0, 8)}
                    </Link>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {simulation.questionsTruncated ? <p>Only the sessions whose evidence goes soonest were judged; more may change.</p> : null}
      {canSave && simulation.changes.length > 0 ? (
        confirming ? (
          <ConfirmSave simulation={simulation} version={version} save={save} />
        ) : (
          <button className="button" type="button" onClick={() => setConfirming(true)}>
            Save this policy
          </button>
        )
      ) : null}
    </section>
  );
}

function ConfirmSave({
  simulation,
  version,
  save,
}: {
  simulation: Simulation;
  version: number;
  save: Action<{ version: number }>;
}) {
  const [result, submit, pending] = useActionState(save, null);
  const form = useRef<HTMLFormElement>(null);
  useRefill(form, result);
  const narrowing = simulation.changes.some((c) => c.narrowing);
  return (
    <form ref={form} action={submit} aria-label="Confirm the policy change" className="panel" style={{ marginTop: 12 }}>
      <h3 style={{ marginTop: 0 }}>Save this policy as version {version + 1}?</h3>
      <ul aria-label="Changes">
        {simulation.changes.map((c) => (
          <li key={c.field}>
            <span className="mono">{c.field}</span>:{" "}
            {c.field === "systemConfigPrefixes"
              ? `${c.added?.length ? `added ${c.added.join(", ")}` : ""}${c.added?.length && c.removed?.length ? "; " : ""}${
                  c.removed?.length ? `removed ${c.removed.join(", ")}` : ""
                }`
              : `${String(c.before)} → ${String(c.after)}`}
            {c.narrowing ? <span className="badge risk"> gives up evidence</span> : null}
          </li>
        ))}
      </ul>
      <input type="hidden" name="version" value={version} />
      <PolicyInputs policy={simulation.proposed.policy} hidden />
      <label>
        Reason{narrowing ? " (required: this change gives up evidence)" : " (optional)"}
        <br />
        <input name="reason" maxLength={1000} size={60} />
      </label>{" "}
      <button className="button" type="submit" disabled={pending || result?.ok === true}>
        Confirm and save
      </button>
      {result ? (
        <p role={result.ok ? "status" : "alert"} className={result.ok ? undefined : "error-text"}>
          {result.ok ? result.message : result.error.message}
        </p>
      ) : null}
    </form>
  );
}

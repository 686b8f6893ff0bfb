"use client";

import Link from "next/link";
import { Code } from "./Code";
import { useActionState, useRef } from "react";
import { useProjectHref } from "./use-project-href";
import type { ActionResult } from "@/lib/core/action-result";
import { useRefill } from "./ActionForm";

import type { Cell, Verdict } from "@/lib/evidence/types";

export interface RunGateData {
  dryRun: boolean;
  summarySpanId: string | null;
  decisions: Array<{ spanId: string; verdict: Verdict; cell: Cell; reason: string }>;
}
type Result = ActionResult<RunGateData>;

/**
 * Try a compaction of a seq range against the gate: a dry run unless "record it" is ticked. The
 * range starts as `range`, the first run of spans not reclaimed yet (a range holding a reclaimed
 * span is refused whole); with none left, the form says so instead.
 */
export function RunGateForm({
  sessionId,
  maxSeq,
  range,
  action,
}: {
  sessionId: string;
  maxSeq: number;
  range: { fromSeq: number; toSeq: number } | null;
  action: (p: Result | null, f: FormData) => Promise<Result>;
}) {
  const [result, submit, pending] = useActionState(action, null);
  const href = useProjectHref();
  const form = useRef<HTMLFormElement>(null);
  useRefill(form, result);
  const data = result?.ok ? result.data : undefined;
  if (!range && !data)
    return (
      <p className="panel" style={{ marginTop: 16 }}>
        Every span of this transcript is already reclaimed: there is nothing left to ask the gate about.
      </p>
    );
  return (
    <section className="panel" aria-label="Run gate" style={{ marginTop: 16 }}>
      <form ref={form} action={submit} style={{ display: "grid", gap: 8 }}>
        <input type="hidden" name="sessionId" value={sessionId} />
        <div style={{ display: "flex", gap: 12, alignItems: "end", flexWrap: "wrap" }}>
          <label>
            From seq
            <br />
            <input name="fromSeq" type="number" min={0} max={maxSeq} defaultValue={range?.fromSeq ?? 0} required />
          </label>
          <label>
            To seq
            <br />
            <input name="toSeq" type="number" min={0} max={maxSeq} defaultValue={range?.toSeq ?? maxSeq} required />
          </label>
          <label>
            <input type="checkbox" name="pointers" defaultChecked /> carry pointers to the originals
          </label>
          <label>
            <input type="checkbox" name="honest" /> name what the text drops
          </label>
          <label>
            <input type="checkbox" name="commit" /> record it (not a dry run)
          </label>
        </div>
        {range && (range.fromSeq > 0 || range.toSeq < maxSeq) ? (
          <p className="subtitle" style={{ margin: 0 }}>
            Starts at seq {range.fromSeq}–{range.toSeq}, the first spans not reclaimed yet: a range holding a reclaimed span is
            refused.
          </p>
        ) : null}
        <label>
          Candidate summary
          <textarea
            name="text"
            rows={2}
            required
            style={{ width: "100%", font: "inherit" }}
            defaultValue="The agent worked on the task."
          />
        </label>
        <div>
          <button className="button" type="submit" disabled={pending}>
            Run gate
          </button>
        </div>
      </form>
      {result && !result.ok ? (
        <p role="alert" className="error-text">
          {result.error.message}
        </p>
      ) : null}
      {data ? (
        <>
          <p role="status">
            {data.dryRun ? "Dry run: nothing was recorded." : "Recorded."}{" "}
            {data.summarySpanId ? <Link href={href(`/spans/${data.summarySpanId}`)}>Open the summary span</Link> : null}
          </p>
          <table className="data" aria-label="Gate verdicts">
            <thead>
              <tr>
                <th>Span</th>
                <th>Verdict</th>
                <th>Cell</th>
                <th>Reason</th>
              </tr>
            </thead>
            <tbody>
              {data.decisions.map((d) => (
                <tr key={d.spanId}>
                  <td>
                    <Link href={href(`/spans/${d.spanId}`)} className="mono">
                      {d.spanId.slice(0, 8)}
                    </Link>
                  </td>
                  <td>
                    <span
                      className={`badge ${d.verdict === "REFUSE" ? "lost" : d.verdict === "RECLAIM_HONEST" ? "risk" : "safe"}`}
                    >
                      <Code value={d.verdict} />
                    </span>
                  </td>
                  <td>
                    <Code value={d.cell.class} /> × <Code value={d.cell.provenance} />
                  </td>
                  <td>{d.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </section>
  );
}

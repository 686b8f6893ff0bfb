"use client";

import Link from "next/link";
import { useActionState, useRef } from "react";
import type { ActionResult } from "@/lib/core/action-result";
import { useRefill } from "./ActionForm";
import { formatTime, humanize } from "./format";

export interface AtRiskRow {
  sessionId: string;
  sessionTitle: string;
  spanId: string;
  seq: number | null;
  class: string;
  expiresAt: string;
  horizonAt: string;
}

type Action = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/** Originals at risk with checkboxes and bulk pin / extend, shown to roles that may act. */
export function AtRiskTable({ rows, canAct, action }: { rows: AtRiskRow[]; canAct: boolean; action: Action }) {
  const [result, submit, pending] = useActionState(action, null);
  const form = useRef<HTMLFormElement>(null);
  useRefill(form, result);
  return (
    <form ref={form} action={submit}>
      {canAct ? (
        <div className="panel" style={{ display: "flex", gap: 12, alignItems: "end", marginBottom: 12 }}>
          <label>
            Keep for (days from now)
            <br />
            <input name="days" type="number" min={1} max={36500} defaultValue={400} />
          </label>
          <label>
            Reason (required)
            <br />
            <input name="reason" required maxLength={1000} />
          </label>
          <button className="button" type="submit" name="act" value="pin" disabled={pending}>
            Pin selected
          </button>
          <button className="button secondary" type="submit" name="act" value="extend" disabled={pending}>
            Extend selected
          </button>
        </div>
      ) : null}
      {result ? (
        result.ok ? (
          <p role="status">{result.message}</p>
        ) : (
          <p role="alert" className="error-text">
            {result.error.message}
          </p>
        )
      ) : null}
      <table className="data" aria-label="Originals at risk">
        <thead>
          <tr>
            {canAct ? (
              <th>
                <span className="visually-hidden">Select</span>
              </th>
            ) : null}
            <th>Expires</th>
            <th>Horizon</th>
            <th>Session</th>
            <th className="num">Span</th>
            <th>Class</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((o) => (
            <tr key={o.spanId}>
              {canAct ? (
                <td>
                  <input
                    type="checkbox"
                    name="original"
                    value={`${o.sessionId}:${o.spanId}`}
                    aria-label={`Select span ${o.seq ?? o.spanId.slice(0, 8)} of ${o.sessionTitle}`}
                  />
                </td>
              ) : null}
              <td>
                <time dateTime={o.expiresAt}>{formatTime(new Date(o.expiresAt))}</time>
              </td>
              <td>
                <time dateTime={o.horizonAt}>{formatTime(new Date(o.horizonAt))}</time>
              </td>
              <td>
                <Link href={`/sessions/${o.sessionId}`}>{o.sessionTitle}</Link>
              </td>
              <td className="num">
                <Link href={`/spans/${o.spanId}`}>{o.seq ?? "summary"}</Link>
              </td>
              <td>{humanize(o.class)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </form>
  );
}

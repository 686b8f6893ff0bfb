"use client";

import Link from "next/link";
import { useActionState, useRef } from "react";
import type { ActionResult } from "@/lib/core/action-result";
import { useRefill } from "./ActionForm";
import { BulkActFields, type BulkTarget } from "./BulkActFields";
import { Code } from "./Code";
import { formatTime } from "./format";
import { projectHref } from "./project-href";

export interface AtRiskRow {
  sessionId: string;
  sessionTitle: string;
  spanId: string;
  seq: number | null;
  class: string;
  expiresAt: string;
  horizonAt: string;
  /** Size of the held original. */
  bytes: number;
}

type Action = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/** How many boxes are ticked, and the bytes their originals hold (each box carries its own). */
export function tickedTarget(form: HTMLFormElement | null): BulkTarget {
  const ticked = form ? Array.from(form.querySelectorAll<HTMLInputElement>('input[name="original"]:checked')) : [];
  return { count: ticked.length, bytes: ticked.reduce((sum, box) => sum + Number(box.dataset.bytes ?? 0), 0) };
}

/**
 * Originals at risk with checkboxes and bulk pin / extend, shown to roles that may act: the
 * confirmation names how many are ticked and the bytes they hold, and the reason.
 */
export function AtRiskTable({
  project,
  rows,
  canAct,
  action,
}: {
  project: string;
  rows: AtRiskRow[];
  canAct: boolean;
  action: Action;
}) {
  const [result, submit, pending] = useActionState(action, null);
  const form = useRef<HTMLFormElement>(null);
  useRefill(form, result);
  return (
    <form ref={form} action={submit} aria-label="Keep originals at risk">
      {canAct ? (
        <div className="panel" style={{ display: "flex", gap: 12, alignItems: "end", flexWrap: "wrap", marginBottom: 12 }}>
          <BulkActFields form={form} target={() => tickedTarget(form.current)} pending={pending} what="selected" />
        </div>
      ) : null}
      {result ? (
        result.ok ? (
          <p role="status" className="act-outcome">
            {result.message}
          </p>
        ) : (
          <p role="alert" className="error-text">
            {result.error.message}
          </p>
        )
      ) : null}
      <table className="data stacked" aria-label="Originals at risk">
        <thead>
          <tr>
            {canAct ? (
              <th>
                <span className="visually-hidden">Select</span>
              </th>
            ) : null}
            {/* When it expires and whose it is first: what a phone's first screen shows. */}
            <th>Expires</th>
            <th>Session</th>
            <th className="num">Span</th>
            <th>Class</th>
            <th>Horizon</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((o) => (
            <tr key={o.spanId}>
              {canAct ? (
                <td className="pick">
                  <input
                    type="checkbox"
                    name="original"
                    value={`${o.sessionId}:${o.spanId}`}
                    data-bytes={o.bytes}
                    aria-label={`Select span ${o.seq ?? o.spanId.slice(0, 8)} of ${o.sessionTitle}`}
                  />
                </td>
              ) : null}
              <td className="when" data-label="Expires">
                <time dateTime={o.expiresAt}>{formatTime(new Date(o.expiresAt))}</time>
              </td>
              <td className="name" data-label="Session">
                <Link href={projectHref(project, `/sessions/${o.sessionId}`)}>{o.sessionTitle}</Link>
              </td>
              <td className="num" data-label="Span">
                <Link href={projectHref(project, `/spans/${o.spanId}`)}>{o.seq ?? "summary"}</Link>
              </td>
              <td className="one-line short" data-label="Class">
                <Code value={o.class} />
              </td>
              <td className="when short" data-label="Horizon">
                <time dateTime={o.horizonAt}>{formatTime(new Date(o.horizonAt))}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </form>
  );
}

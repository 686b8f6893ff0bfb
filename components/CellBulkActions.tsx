"use client";

import { useActionState, useRef } from "react";
import type { ActionResult } from "@/lib/core/action-result";
import { useRefill } from "./ActionForm";

type Action = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/** Pin or extend every held original in one grid cell (the spans listed below it), with a reason. */
export function CellBulkActions({
  sessionId,
  spanIds,
  label,
  action,
}: {
  sessionId: string;
  spanIds: string[];
  label: string;
  action: Action;
}) {
  const [result, submit, pending] = useActionState(action, null);
  const form = useRef<HTMLFormElement>(null);
  useRefill(form, result);
  if (spanIds.length === 0) return null;
  return (
    <form
      ref={form}
      action={submit}
      className="panel"
      style={{ display: "flex", gap: 12, alignItems: "end", margin: "12px 0" }}
      aria-label={`Retention acts for ${label}`}
    >
      {spanIds.map((id) => (
        <input key={id} type="hidden" name="original" value={`${sessionId}:${id}`} />
      ))}
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
        Pin all {spanIds.length}
      </button>
      <button className="button secondary" type="submit" name="act" value="extend" disabled={pending}>
        Extend all {spanIds.length}
      </button>
      {result ? (
        result.ok ? (
          <span role="status">{result.message}</span>
        ) : (
          <span role="alert" className="error-text">
            {result.error.message}
          </span>
        )
      ) : null}
    </form>
  );
}

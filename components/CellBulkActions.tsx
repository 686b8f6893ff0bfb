"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/lib/core/action-result";

type Action = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/** Pin or extend every held original in one grid cell (the spans listed below it). */
export function CellBulkActions({ spanIds, label, action }: { spanIds: string[]; label: string; action: Action }) {
  const [result, submit, pending] = useActionState(action, null);
  if (spanIds.length === 0) return null;
  return (
    <form
      action={submit}
      className="panel"
      style={{ display: "flex", gap: 12, alignItems: "end", margin: "12px 0" }}
      aria-label={`Retention acts for ${label}`}
    >
      {spanIds.map((id) => (
        <input key={id} type="hidden" name="spanId" value={id} />
      ))}
      <label>
        Keep for (days from now)
        <br />
        <input name="days" type="number" min={1} max={36500} defaultValue={400} />
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

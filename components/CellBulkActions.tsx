"use client";

import { useActionState, useRef } from "react";
import type { ActionResult } from "@/lib/core/action-result";
import { useRefill } from "./ActionForm";
import { BulkActFields } from "./BulkActFields";
import { formatCount } from "./format";

type Action = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/**
 * Pin or extend every held original in one grid cell (the spans listed below it), with a reason and
 * a confirmation naming the count and bytes.
 */
export function CellBulkActions({
  sessionId,
  spanIds,
  bytes,
  cellTotal,
  label,
  action,
}: {
  sessionId: string;
  spanIds: string[];
  /** The held bytes of those originals, when the page knows them. */
  bytes?: number;
  /** Spans the cell holds in all; more than `spanIds` when the act takes only the first of them. */
  cellTotal?: number;
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
      style={{ display: "flex", gap: 12, alignItems: "end", flexWrap: "wrap", margin: "12px 0" }}
      aria-label={`Retention acts for ${label}`}
    >
      {spanIds.map((id) => (
        <input key={id} type="hidden" name="original" value={`${sessionId}:${id}`} />
      ))}
      <BulkActFields
        form={form}
        target={() => ({ count: spanIds.length, bytes })}
        pending={pending}
        what={
          cellTotal !== undefined && cellTotal > spanIds.length
            ? `the first ${formatCount(spanIds.length)} of ${formatCount(cellTotal)}`
            : `all ${formatCount(spanIds.length)}`
        }
      />
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

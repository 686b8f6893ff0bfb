"use client";

import { useActionState, useRef } from "react";
import type { ActionResult } from "@/lib/core/action-result";
import { useRefill } from "./ActionForm";
import { BulkActFields } from "./BulkActFields";
import { formatCount } from "./format";

type Action = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/**
 * Pin or extend every held original of one grid cell, with a reason and a confirmation naming the
 * count and bytes. The form names the cell, not its spans: the act reads the cell when it runs, so a
 * cell of any size is one request (the use case takes at most `limit` of it).
 */
export function CellBulkActions({
  sessionId,
  cell,
  held,
  limit,
  label,
  action,
}: {
  sessionId: string;
  cell: { class: string; provenance: string };
  /** The cell's held originals and their bytes, as the page read them. */
  held: { count: number; bytes: number };
  /** The most originals one act takes. */
  limit: number;
  label: string;
  action: Action;
}) {
  const [result, submit, pending] = useActionState(action, null);
  const form = useRef<HTMLFormElement>(null);
  useRefill(form, result);
  // The outcome outlives the form: after a pin the cell's originals move to another cell and this
  // one empties, yet what was done stays on the page until the person goes elsewhere.
  const outcome = result ? <ActOutcome result={result} /> : null;
  if (held.count === 0)
    return outcome ? (
      <form className="panel" style={{ margin: "12px 0" }} aria-label={`Retention acts for ${label}`}>
        {outcome}
      </form>
    ) : null;
  const taken = Math.min(held.count, limit);
  return (
    <form
      ref={form}
      action={submit}
      className="panel"
      style={{ display: "flex", gap: 12, alignItems: "end", flexWrap: "wrap", margin: "12px 0" }}
      aria-label={`Retention acts for ${label}`}
    >
      <input type="hidden" name="sessionId" value={sessionId} />
      <input type="hidden" name="class" value={cell.class} />
      <input type="hidden" name="provenance" value={cell.provenance} />
      <BulkActFields
        form={form}
        // Bytes of the whole cell; when the act takes only part of it, the count says so.
        target={() => ({ count: taken, ...(taken === held.count ? { bytes: held.bytes } : {}) })}
        pending={pending}
        what={
          held.count > taken ? `the first ${formatCount(taken)} of ${formatCount(held.count)}` : `all ${formatCount(held.count)}`
        }
      />
      {outcome}
    </form>
  );
}

/** What the last act did (or why it failed), on a line of its own. */
function ActOutcome({ result }: { result: ActionResult }) {
  return result.ok ? (
    <p role="status" className="act-outcome" style={{ flexBasis: "100%", margin: 0 }}>
      {result.message}
    </p>
  ) : (
    <p role="alert" className="error-text" style={{ flexBasis: "100%", margin: 0 }}>
      {result.error.message}
    </p>
  );
}

"use client";

import { type RefObject, useState } from "react";
import { formatBytes } from "./charts/what-if-series";
import { formatCount } from "./format";

type Act = "pin" | "extend";

export interface BulkTarget {
  count: number;
  /** Held bytes of the chosen originals; left out where the page does not know them. */
  bytes?: number;
}

/**
 * The fields and buttons of a bulk pin or extend, with a confirmation step: the act names how many
 * originals and how many bytes it keeps, and the reason the audit log will carry, before anything is
 * sent. An empty selection or a missing reason is said plainly here, without a round trip.
 * `target` reads what the form holds at the moment of the click (a fixed cell, or checked boxes).
 */
export function BulkActFields({
  form,
  target,
  pending,
  what,
}: {
  form: RefObject<HTMLFormElement | null>;
  target: () => BulkTarget;
  pending: boolean;
  /** "in this cell", "selected": how the confirmation names the originals. */
  what: string;
}) {
  const [asking, setAsking] = useState<{ act: Act; target: BulkTarget; reason: string; days: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  function ask(act: Act) {
    const chosen = target();
    const data = form.current ? new FormData(form.current) : new FormData();
    const reason = String(data.get("reason") ?? "").trim();
    const days = String(data.get("days") ?? "");
    if (chosen.count === 0) return setProblem("Nothing is selected: tick at least one original first.");
    if (!reason) return setProblem("Give a reason: the audit log records why originals were kept.");
    setProblem(null);
    setAsking({ act, target: chosen, reason, days });
  }

  return (
    <>
      <label>
        Reason (required)
        <br />
        <input name="reason" required maxLength={1000} />
      </label>
      <button className="button" type="button" onClick={() => ask("pin")} disabled={pending}>
        Pin {what}
      </button>
      {/* The days belong to Extend alone: a pin keeps an original whatever its TTL. */}
      <span className="act-group">
        <label>
          Keep for (days from now)
          <br />
          <input name="days" type="number" min={1} max={36500} defaultValue={400} />
        </label>
        <button className="button secondary" type="button" onClick={() => ask("extend")} disabled={pending}>
          Extend {what}
        </button>
      </span>
      {problem ? (
        <p role="alert" className="error-text" style={{ flexBasis: "100%", margin: 0 }}>
          {problem}
        </p>
      ) : null}
      {asking ? (
        <div role="alertdialog" aria-label="Confirm" className="panel" style={{ flexBasis: "100%" }}>
          <p style={{ marginTop: 0 }}>
            {asking.act === "pin" ? "Pin" : `Extend to ${asking.days} days from now`}{" "}
            <strong>
              {formatCount(asking.target.count)} original{asking.target.count === 1 ? "" : "s"}
            </strong>
            {asking.target.bytes !== undefined ? ` (${formatBytes(asking.target.bytes)})` : ""}, with the reason “{asking.reason}
            ”. One audit event will name every span.
          </p>
          <button className="button" type="submit" name="act" value={asking.act} disabled={pending}>
            Confirm {asking.act}
          </button>{" "}
          <button className="button secondary" type="button" onClick={() => setAsking(null)}>
            Cancel
          </button>
        </div>
      ) : null}
    </>
  );
}

"use client";

import { useActionState, useRef } from "react";
import type { ActionResult } from "@/lib/core/action-result";
import type { Simulation } from "@/lib/server/what-if";
import { useRefill } from "./ActionForm";
import { PolicyFormInputs } from "./PolicyFormInputs";
import { policyFieldLabel, policyValueLabel } from "./policy-labels";

type Action<T> = (previous: ActionResult<T> | null, form: FormData) => Promise<ActionResult<T>>;

/**
 * The confirmation of a previewed policy: its changes, the version it was previewed against (a
 * version saved since is a conflict), and the reason a change that gives up evidence needs. A
 * previewed rollback is saved as that rollback.
 */
export function RetentionWhatIfConfirm({
  simulation,
  version,
  rollbackOf,
  save,
}: {
  simulation: Simulation;
  version: number;
  rollbackOf: number | null;
  save: Action<{ version: number }>;
}) {
  const [result, submit, pending] = useActionState(save, null);
  const form = useRef<HTMLFormElement>(null);
  useRefill(form, result);
  const narrowing = simulation.changes.some((c) => c.narrowing);
  return (
    <form ref={form} action={submit} aria-label="Confirm the policy change" className="panel" style={{ marginTop: 12 }}>
      <h3 style={{ marginTop: 0 }}>
        Save this policy as version {version + 1}
        {rollbackOf !== null ? ` (a rollback to version ${rollbackOf})` : ""}?
      </h3>
      <ul aria-label="Changes">
        {simulation.changes.map((c) => (
          <li key={c.field}>
            {policyFieldLabel(c.field)}:{" "}
            {c.field === "systemConfigPrefixes"
              ? `${c.added?.length ? `added ${c.added.join(", ")}` : ""}${c.added?.length && c.removed?.length ? "; " : ""}${
                  c.removed?.length ? `removed ${c.removed.join(", ")}` : ""
                }`
              : `${policyValueLabel(c.field, c.before)} → ${policyValueLabel(c.field, c.after)}`}
            {c.narrowing ? <span className="badge risk"> gives up evidence</span> : null}
          </li>
        ))}
      </ul>
      <input type="hidden" name="version" value={version} />
      {rollbackOf !== null ? <input type="hidden" name="rollbackOf" value={rollbackOf} /> : null}
      <PolicyFormInputs policy={simulation.proposed.policy} hidden />
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

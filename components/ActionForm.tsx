"use client";

import { useActionState, type ReactNode } from "react";
import type { ActionResult } from "@/lib/core/action-result";

type Action = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/** A form bound to a server action, showing its outcome (and a one-time secret, if any) below. */
export function ActionForm({
  action,
  children,
  label,
  inline,
}: {
  action: Action;
  children: ReactNode;
  label: string;
  inline?: boolean;
}) {
  const [result, submit, pending] = useActionState(action, null);
  return (
    <form
      action={submit}
      aria-label={label}
      aria-busy={pending}
      style={
        inline
          ? { display: "inline-flex", gap: 8, alignItems: "end" }
          : { display: "flex", gap: 8, alignItems: "end", flexWrap: "wrap" }
      }
    >
      {children}
      {result ? (
        result.ok ? (
          <span role="status">
            {result.message}{" "}
            {result.secret ? (
              <code data-testid="secret" className="mono">
                {result.secret}
              </code>
            ) : null}
          </span>
        ) : (
          <span role="alert" className="error-text">
            {result.error.message}
          </span>
        )
      ) : null}
    </form>
  );
}

"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { type ReactNode, useActionState, useEffect, useRef } from "react";
import type { ActionResult } from "@/lib/core/action-result";
import { useRefill } from "./ActionForm";

/** What a policy-saving action answers besides its message: the what-if to preview a change that gives up evidence. */
export type PolicySaveData = { preview: string };

type Action = (previous: ActionResult<PolicySaveData> | null, form: FormData) => Promise<ActionResult<PolicySaveData>>;

/**
 * A form that saves a retention policy where no preview is shown (the settings page, a rollback on
 * the history page). A change that only keeps evidence longer is saved at once; one that gives up
 * evidence comes back unsaved with the what-if to preview it on, which the browser opens.
 */
export function PolicyFormAction({
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
  const form = useRef<HTMLFormElement>(null);
  const router = useRouter();
  useRefill(form, result);
  const preview = result?.ok ? result.data?.preview : undefined;
  useEffect(() => {
    if (preview) router.push(preview);
  }, [preview, router]);
  return (
    <form
      ref={form}
      action={submit}
      aria-label={label}
      aria-busy={pending}
      style={{ display: inline ? "inline-flex" : "flex", gap: 8, alignItems: "end", flexWrap: "wrap", maxWidth: "100%" }}
    >
      {children}
      {result ? (
        result.ok ? (
          <span role="status">
            {result.message} {preview ? <Link href={preview}>Preview the change</Link> : null}
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

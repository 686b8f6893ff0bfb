"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { type ReactNode, type RefObject, useActionState, useEffect, useRef } from "react";
import type { ActionResult, FormValues } from "@/lib/core/action-result";

type Action<T> = (previous: ActionResult<T> | null, form: FormData) => Promise<ActionResult<T>>;

/** An address the answer's data holds under `key`, to open after the act (a change handed to its preview). */
export interface FollowAddress {
  key: string;
  /** The link shown with the message, in case the browser has not gone there yet. */
  label: string;
}

function addressIn(result: ActionResult<unknown> | null, key: string | undefined): string | undefined {
  if (!key || !result?.ok || !result.data || typeof result.data !== "object") return undefined;
  const address = (result.data as Record<string, unknown>)[key];
  return typeof address === "string" ? address : undefined;
}

/**
 * Opens `address` once it is shown: a component of its own, so that only a form whose answer holds
 * an address needs the app's router (forms are also rendered outside it, in tests and elsewhere).
 */
function OpenAddress({ address }: { address: string }) {
  const router = useRouter();
  useEffect(() => {
    router.push(address);
  }, [address, router]);
  return null;
}

/** Puts back what was typed (React clears a form once its action returns). */
export function refillForm(form: HTMLFormElement, values: FormValues): void {
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement))
      continue;
    if (
      !element.name ||
      (element instanceof HTMLInputElement && ["hidden", "submit", "button", "password"].includes(element.type))
    )
      continue;
    const sent = values[element.name];
    const list = sent === undefined ? [] : Array.isArray(sent) ? sent : [sent];
    if (element instanceof HTMLInputElement && (element.type === "checkbox" || element.type === "radio")) {
      element.checked = list.includes(element.value);
    } else if (sent !== undefined) {
      element.value = list[0] ?? "";
    }
  }
}

/** After an error, the form shows again what was typed. */
export function useRefill(form: RefObject<HTMLFormElement | null>, result: { ok: boolean; values?: FormValues } | null): void {
  useEffect(() => {
    if (result && !result.ok && result.values && form.current) refillForm(form.current, result.values);
  }, [form, result]);
}

/**
 * A form bound to a server action, showing its outcome (and a one-time secret, if any) below; with
 * `follow`, the browser opens the address the answer's data holds under its key.
 */
export function ActionForm<T>({
  action,
  children,
  label,
  inline,
  follow,
}: {
  action: Action<T>;
  children: ReactNode;
  label: string;
  inline?: boolean;
  follow?: FollowAddress;
}) {
  const [result, submit, pending] = useActionState(action, null);
  const form = useRef<HTMLFormElement>(null);
  useRefill(form, result);
  const address = addressIn(result, follow?.key);
  return (
    <form
      ref={form}
      action={submit}
      aria-label={label}
      aria-busy={pending}
      style={
        inline
          ? { display: "inline-flex", gap: 8, alignItems: "end", flexWrap: "wrap", maxWidth: "100%" }
          : { display: "flex", gap: 8, alignItems: "end", flexWrap: "wrap" }
      }
    >
      {children}
      {result ? (
        result.ok ? (
          <span role="status">
            {result.message}{" "}
            {address && follow ? (
              <>
                <Link href={address}>{follow.label}</Link>
                <OpenAddress address={address} />
              </>
            ) : null}
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

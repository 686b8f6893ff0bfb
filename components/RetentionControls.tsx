"use client";

import { useActionState, useRef } from "react";
import type { ActionResult } from "@/lib/core/action-result";
import { useRefill } from "./ActionForm";

type Action = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

interface Props {
  spanId: string;
  pinned: boolean;
  /** What the signed-in role may do; the server checks again on every act. */
  allowed: { pin: boolean; unpin: boolean; extend: boolean; shorten: boolean };
  actions: { pin: Action; unpin: Action; setExpiry: Action };
}

function Outcome({ result }: { result: ActionResult | null }) {
  if (!result) return null;
  return result.ok ? (
    <p role="status" className="badge safe">
      {result.message}
    </p>
  ) : (
    <p role="alert" className="error-text">
      {result.error.message}
    </p>
  );
}

/** Pin / unpin / move the expiry of one original, shown only to roles that may. */
export function RetentionControls({ spanId, pinned, allowed, actions }: Props) {
  const [pinResult, pin, pinning] = useActionState(actions.pin, null);
  const [unpinResult, unpin, unpinning] = useActionState(actions.unpin, null);
  const [expiryResult, setExpiry, setting] = useActionState(actions.setExpiry, null);
  const pinForm = useRef<HTMLFormElement>(null);
  const unpinForm = useRef<HTMLFormElement>(null);
  const expiryForm = useRef<HTMLFormElement>(null);
  useRefill(pinForm, pinResult);
  useRefill(unpinForm, unpinResult);
  useRefill(expiryForm, expiryResult);
  if (!allowed.pin && !allowed.unpin && !allowed.extend) return null;
  return (
    <section className="panel" aria-label="Retention controls" style={{ display: "grid", gap: 12 }}>
      {!pinned && allowed.pin ? (
        <form ref={pinForm} action={pin} style={{ display: "flex", gap: 8, alignItems: "end", flexWrap: "wrap" }}>
          <input type="hidden" name="spanId" value={spanId} />
          <label>
            Reason (optional)
            <br />
            <input name="reason" placeholder="e.g. incident INC-2291" />
          </label>
          <button className="button" type="submit" disabled={pinning}>
            Pin original
          </button>
        </form>
      ) : null}
      {pinned && allowed.unpin ? (
        <form ref={unpinForm} action={unpin} style={{ display: "flex", gap: 8, alignItems: "end", flexWrap: "wrap" }}>
          <input type="hidden" name="spanId" value={spanId} />
          <label>
            Reason (required)
            <br />
            <input name="reason" required placeholder="why the hold is lifted" />
          </label>
          <button className="button secondary" type="submit" disabled={unpinning}>
            Unpin
          </button>
        </form>
      ) : null}
      {!pinned && allowed.extend ? (
        <form ref={expiryForm} action={setExpiry} style={{ display: "flex", gap: 8, alignItems: "end", flexWrap: "wrap" }}>
          <input type="hidden" name="spanId" value={spanId} />
          <label>
            Keep for (days from now)
            <br />
            <input name="days" type="number" min={1} max={36500} defaultValue={400} required />
          </label>
          <label>
            Reason (required)
            <br />
            <input name="reason" required maxLength={1000} />
          </label>
          <button className="button secondary" type="submit" disabled={setting}>
            Set expiry
          </button>
        </form>
      ) : null}
      <Outcome result={pinResult} />
      <Outcome result={unpinResult} />
      <Outcome result={expiryResult} />
    </section>
  );
}

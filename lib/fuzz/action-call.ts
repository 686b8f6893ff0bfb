/**
 * Calling a server action in process as Next.js does on a form's POST: inside a request scope
 * holding the request's headers and cookies (the caller's real session cookie, the Origin a
 * browser would send), with the project bound first for an act inside a project. What comes back
 * is sorted as Next.js would answer it: a result, a redirect, or a throw (a 500).
 */
import type { ActionResult } from "@/lib/core/action-result";
import { ERROR_CODES, type ErrorCode } from "@/lib/core/errors";
import { ACTION_HOST, ACTION_ORIGIN, type ActionFixture, type FuzzPerson, type Standing } from "./action-fixture";
import type { ActionKind } from "./action-forms";
import type { FuzzAction } from "./actions";
import { inRequestScope } from "./request-scope";
import { CLIENT_ADDRESS_HEADER } from "@/lib/core/client-address";

export const ORIGINS = {
  same: ACTION_ORIGIN,
  missing: null,
  foreign: "https://evil.example",
  opaque: "null",
  "other-port": `${ACTION_ORIGIN}:8080`,
} as const;
export type OriginCase = keyof typeof ORIGINS;

export interface ActionCall {
  action: FuzzAction;
  kind: ActionKind;
  standing: Standing;
  caller: FuzzPerson | null;
  origin: OriginCase;
  /** The project slug bound to an act inside a project (null: the form's hidden field names it). */
  bound: string | null;
  form: FormData;
  /** The address the request comes from (sign-in is throttled per address). */
  address: string;
  /**
   * Arguments sent instead of the form (and the bound slug): what a request body decodes to when
   * it was not sent by the page (`[]`, `[null, 5]`). Such a call must be refused, never a 500.
   */
  args?: unknown[];
}

/** Argument lists no page sends, for each kind of action (sign-out reads none). */
export function malformedArguments(kind: ActionKind, slug: string): unknown[][] {
  const junk: unknown[][] = [[], [null], [undefined, undefined], [{}, []], [null, null, null], [0, "x", 5], [null, {}]];
  if (kind === "project")
    return [...junk, [slug], [slug, null], [slug, null, null], [slug, null, "email=x"], [slug, null, { get: 1 }], [slug, {}, []]];
  if (kind === "instance" || kind === "account") return [...junk, [null, "name=x"], [null, { entries: [] }]];
  return junk;
}

export interface ActionCallResult {
  /** "ok", the error's code, "redirect", "refused" (a sign-in form's error), "returned" or "threw". */
  status: string;
  /** True when nothing was done: an error result, a sign-in refused, a sign-out that did not run. */
  refused: boolean;
  /** A 500 as Next.js would answer: a throw, or an error result of an internal kind. */
  serverError: boolean;
  detail: string;
}

/** Next.js's redirect() and notFound() throw errors it turns into answers, not 500s. */
function nextControlFlow(error: unknown): string | null {
  const digest = (error as { digest?: unknown } | null)?.digest;
  if (typeof digest !== "string") return null;
  if (digest.startsWith("NEXT_REDIRECT")) return "redirect";
  if (digest.startsWith("NEXT_HTTP_ERROR_FALLBACK")) return "not-found";
  return null;
}

function isActionResult(value: unknown): value is ActionResult<unknown> {
  if (value === null || typeof value !== "object" || typeof (value as { ok?: unknown }).ok !== "boolean") return false;
  const { ok, error } = value as { ok: boolean; error?: { code?: unknown; message?: unknown } };
  return ok || (typeof error?.code === "string" && typeof error.message === "string");
}

function sorted(kind: ActionKind, value: unknown): ActionCallResult {
  const detail = (() => {
    try {
      return (JSON.stringify(value) ?? String(value)).slice(0, 400);
    } catch {
      return String(value);
    }
  })();
  if (kind === "sign-in") {
    const error = (value as { error?: unknown } | null)?.error;
    return typeof error === "string"
      ? { status: "refused", refused: true, serverError: false, detail }
      : { status: "returned", refused: false, serverError: true, detail: `not a sign-in state: ${detail}` };
  }
  if (kind === "sign-out") return { status: "returned", refused: true, serverError: false, detail };
  if (!isActionResult(value)) return { status: "malformed", refused: false, serverError: true, detail };
  if (value.ok) return { status: "ok", refused: false, serverError: false, detail };
  const code = value.error.code as ErrorCode;
  const status = ERROR_CODES[code] ?? 500;
  const serverError = status >= 500 && code !== "DATABASE_UNAVAILABLE";
  return { status: ERROR_CODES[code] === undefined ? `unknown code ${code}` : code, refused: true, serverError, detail };
}

export async function callAction(call: ActionCall): Promise<ActionCallResult> {
  const headers = new Headers({ host: ACTION_HOST, "next-action": call.action.id, [CLIENT_ADDRESS_HEADER]: call.address });
  const origin = ORIGINS[call.origin];
  if (origin !== null) headers.set("origin", origin);
  if (call.caller) headers.set("cookie", call.caller.cookie);
  const request = new Request(`${ACTION_ORIGIN}/fuzz`, { method: "POST", headers });
  try {
    const value = await inRequestScope(request, "/fuzz", () => {
      if (call.args) return call.action.fn(...call.args);
      switch (call.kind) {
        case "project":
          return call.action.fn(call.bound, null, call.form);
        case "sign-out":
          return call.action.fn(call.form);
        default:
          return call.action.fn(call.kind === "sign-in" ? {} : null, call.form);
      }
    });
    return sorted(call.kind, value);
  } catch (error) {
    const flow = nextControlFlow(error);
    if (flow) return { status: flow, refused: false, serverError: false, detail: flow };
    const stack = String((error as Error)?.stack ?? error);
    return { status: "threw", refused: false, serverError: true, detail: stack.split("\n").slice(0, 4).join("\n").slice(0, 800) };
  }
}

/** The project an act inside a project names: the bound slug, else the form's hidden field. */
export function namedProject(call: ActionCall): unknown {
  return call.bound ?? call.form.get("project");
}

/**
 * Whether the call may change the project with this slug: an act inside it by one of its members,
 * or an instance admin's act (which may add anyone to any project). Anything else leaves it as it was.
 */
export function mayChange(call: ActionCall, fx: ActionFixture, slug: string): boolean {
  if (call.args) return false;
  if (call.kind === "instance") return expectedRefusal(call, fx) === null;
  return call.kind === "project" && namedProject(call) === slug && expectedRefusal(call, fx) === null;
}

/**
 * What the call must be refused with, whatever its form says, or null when it may go through: a
 * request from another site (or none named) is FORBIDDEN; a stranger is UNAUTHENTICATED; a person
 * who is not a member of the project named is NOT_FOUND; anyone but an instance admin doing an
 * instance admin's act is FORBIDDEN. Signing in and out from another site is refused alike.
 */
export function expectedRefusal(call: ActionCall, fx: ActionFixture): ErrorCode | "refused" | null {
  if (call.args) return "refused";
  if (call.kind === "sign-in" || call.kind === "sign-out") return call.origin === "same" ? null : "refused";
  if (call.origin !== "same") return "FORBIDDEN";
  if (!call.caller) return "UNAUTHENTICATED";
  if (call.kind === "instance") return call.caller.instanceRole === "ADMIN" ? null : "FORBIDDEN";
  if (call.kind === "account") return null;
  const named = namedProject(call);
  const member =
    (named === fx.project.slug && call.caller.roles.project !== undefined) ||
    (named === fx.other.slug && call.caller.roles.other !== undefined);
  return member ? null : "NOT_FOUND";
}

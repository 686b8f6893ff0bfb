import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import type { z } from "zod";
import type { ActionResult, FormValues } from "@/lib/core/action-result";
import { AppError, toAppError } from "@/lib/core/errors";
import { requirePermission, type Permission } from "@/lib/core/permissions";
import { zodFields } from "@/lib/core/validation";
import type { Actor } from "@/lib/server/audit";
import { currentUser, type SignedInUser } from "./session";

export type { ActionResult } from "@/lib/core/action-result";

/** A server action as forms call it (React's `useActionState`). */
export type FormAction<T = undefined> = (previous: ActionResult<T> | null, form: FormData) => Promise<ActionResult<T>>;

export interface ActionContext<I> {
  input: I;
  user: SignedInUser;
  /** Who the audit log names: the use case writes its audit rows with it, in its own transaction. */
  actor: Actor;
}

/** What a run returns: the message to show, or a message with a one-time secret or data for the form. */
export type ActionOutcome<T> = string | { message: string; secret?: string; data?: T };

export interface ActionDefinition<I, T> {
  /** What the act needs; a function of the submitted form when one action does two acts (pin or extend). */
  permission: Permission | ((form: FormData) => Permission);
  /** The form's schema; empty fields are left out, so optional fields may be left blank. */
  input: z.ZodType<I>;
  /** Fields always read as lists (checkboxes, repeated hidden inputs), even with one value or none. */
  lists?: readonly string[];
  /** Pages to show afresh after the act. */
  revalidate?: readonly string[] | ((input: I) => readonly string[]);
  run: (context: ActionContext<I>) => Promise<ActionOutcome<T>>;
}

/** What a server action reads from its request: replaced in tests, which run outside a request. */
export interface ActionEnvironment {
  headers: () => Promise<Headers>;
  currentUser: () => Promise<SignedInUser | null>;
  revalidate: (path: string) => void;
}

const NEXT_ENVIRONMENT: ActionEnvironment = {
  headers: async () => new Headers(await headers()),
  currentUser,
  // A path with a dynamic segment ("/sessions/[id]") stands for every page of that route.
  revalidate: (path) => (path.includes("[") ? revalidatePath(path, "page") : revalidatePath(path)),
};

/** Fields never sent back to the form (a typed password stays typed only in the browser). */
const NEVER_ECHOED = new Set(["password"]);

/**
 * A server action is a public endpoint: anyone can POST to it. It refuses a request whose Origin
 * header is missing or names another site (a form on another page cannot act in a signed-in
 * person's name), and compares it with the host the request was addressed to (x-forwarded-host
 * behind a proxy, else Host).
 */
export function requireSameOrigin(requestHeaders: Headers): void {
  const origin = requestHeaders.get("origin");
  if (!origin) throw new AppError("FORBIDDEN", "Refused: the request has no Origin header");
  let originHost: string;
  try {
    originHost = new URL(origin).host.toLowerCase();
  } catch {
    throw new AppError("FORBIDDEN", "Refused: the request's Origin header is not a URL");
  }
  const addressed = (requestHeaders.get("x-forwarded-host") ?? requestHeaders.get("host") ?? "")
    .split(",")[0]!
    .trim()
    .toLowerCase();
  if (!addressed || originHost !== addressed) throw new AppError("FORBIDDEN", "Refused: the request comes from another site");
}

/** The form as the schema reads it: one value per name, lists for `lists`, blank fields left out. */
export function formInput(form: FormData, lists: readonly string[] = []): Record<string, string | string[]> {
  const input: Record<string, string | string[]> = {};
  for (const name of lists) input[name] = [];
  for (const [name, value] of form.entries()) {
    if (typeof value !== "string" || name.startsWith("$ACTION")) continue;
    if (lists.includes(name)) {
      if (value !== "") (input[name] as string[]).push(value);
    } else if (value !== "") input[name] = value;
  }
  return input;
}

/** What was typed, to fill the form again after an error (passwords left out). */
export function formValues(form: FormData): FormValues {
  const values: FormValues = {};
  for (const [name, value] of form.entries()) {
    if (typeof value !== "string" || name.startsWith("$ACTION") || NEVER_ECHOED.has(name)) continue;
    const previous = values[name];
    values[name] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return values;
}

/** The form through its schema; a field at fault is named in the message the form shows. */
function parseForm<I>(schema: z.ZodType<I>, value: unknown): I {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields = zodFields(result.error);
  const first = fields[0]!;
  const message = first.path === "(body)" ? first.message : `${first.path}: ${first.message}`;
  throw new AppError("VALIDATION_FAILED", `Check the form (${message})`, { fields });
}

/**
 * The one way to write a server action: same-origin check, sign-in, permission, the form validated
 * by its schema (422 VALIDATION_FAILED with the fields at fault), the act (which audits with the
 * actor given here, in its own transaction), the pages revalidated, and the ActionResult shape; on
 * an error the form gets back what was typed.
 */
export function defineAction<I, T = undefined>(
  definition: ActionDefinition<I, T>,
  environment: ActionEnvironment = NEXT_ENVIRONMENT,
): FormAction<T> {
  return async (_previous, form) => {
    try {
      requireSameOrigin(await environment.headers());
      const user = await environment.currentUser();
      if (!user) throw new AppError("UNAUTHENTICATED", "Sign in first");
      requirePermission(
        user.role,
        typeof definition.permission === "function" ? definition.permission(form) : definition.permission,
      );
      const input = parseForm(definition.input, formInput(form, definition.lists));
      const outcome = await definition.run({ input, user, actor: { type: "USER", id: user.id, label: user.email } });
      const paths = typeof definition.revalidate === "function" ? definition.revalidate(input) : (definition.revalidate ?? []);
      for (const path of paths) environment.revalidate(path);
      return typeof outcome === "string" ? { ok: true, message: outcome } : { ok: true, ...outcome };
    } catch (error) {
      const appError = toAppError(error);
      if (!(error instanceof AppError)) console.error("Server action failed", error);
      return {
        ok: false,
        error: {
          code: appError.code,
          message: appError.message,
          ...(appError.fields ? { fields: appError.fields } : {}),
        },
        values: formValues(form),
      };
    }
  };
}

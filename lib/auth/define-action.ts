import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import type { z } from "zod";
import type { ActionResult, FormValues } from "@/lib/core/action-result";
import { unstorableText } from "@/lib/core/validation";
import { AppError, toAppError } from "@/lib/core/errors";
import type { Permission, RoleName } from "@/lib/core/permissions";
import { zodFields } from "@/lib/core/validation";
import type { ProjectRef } from "@/lib/server/admin";
import type { Actor } from "@/lib/server/audit";
import { actorOf, memberAccess, requireInstanceRole } from "./project-access";
import { currentUser, type SignedInUser } from "./session";

export type { ActionResult } from "@/lib/core/action-result";

/** A server action as forms call it (React's `useActionState`). */
export type FormAction<T = undefined> = (previous: ActionResult<T> | null, form: FormData) => Promise<ActionResult<T>>;

/**
 * An act inside a project. The page binds the project's slug (`action.bind(null, slug)`), which
 * makes it a FormAction; a form may instead name it in a hidden `project` field (bound wins). Either
 * way the slug is only a claim: the caller's membership of that project is checked on every call.
 */
export type ProjectAction<T = undefined> = (
  project: string | null,
  previous: ActionResult<T> | null,
  form: FormData,
) => Promise<ActionResult<T>>;

export interface InstanceActionContext<I> {
  input: I;
  user: SignedInUser;
  /** Who the audit log names: the use case writes its audit rows with it, in its own transaction. */
  actor: Actor;
}

export interface ActionContext<I> extends InstanceActionContext<I> {
  /** The project the act is in; use cases are given its id, never one typed into the form. */
  project: ProjectRef;
  /** The caller's role in that project (what a run asks `can` of, for acts that depend on it). */
  role: RoleName;
}

/** What a run returns: the message to show, or a message with a one-time secret or data for the form. */
export type ActionOutcome<T> = string | { message: string; secret?: string; data?: T };

export interface ActionDefinition<I, T> {
  /**
   * What the act needs of the caller's role in the project; a function of the submitted form when
   * one action does two acts (pin or extend).
   */
  permission: Permission | ((form: FormData) => Permission);
  /** The form's schema; empty fields are left out, so optional fields may be left blank. */
  input: z.ZodType<I>;
  /** Fields always read as lists (checkboxes, repeated hidden inputs), even with one value or none. */
  lists?: readonly string[];
  /**
   * Pages to show afresh after the act, inside the project: "/retention" is the project's retention
   * page; a dynamic segment ("/sessions/[id]") stands for every page of that route. A function is
   * given the input and what the act answered (an act that wrote nothing may name no page).
   */
  revalidate?: readonly string[] | ((input: I, outcome: ActionOutcome<T>) => readonly string[]);
  run: (context: ActionContext<I>) => Promise<ActionOutcome<T>>;
}

/** An instance admin's act: not inside a project; the caller's instance role must be ADMIN. */
export interface InstanceActionDefinition<I, T> {
  input: z.ZodType<I>;
  lists?: readonly string[];
  /** Pages to show afresh after the act (absolute paths). */
  revalidate?: readonly string[];
  run: (context: InstanceActionContext<I>) => Promise<ActionOutcome<T>>;
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

/** A project page's path: "/retention" in project "demo" is "/projects/demo/retention". */
function projectPath(slug: string, path: string): string {
  return path.includes("[") ? `/projects/[slug]${path}` : `/projects/${slug}${path}`;
}

/** Fields never sent back to the form (a typed password stays typed only in the browser). */
const NEVER_ECHOED = new Set(["password", "currentPassword", "newPassword"]);

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

/** The hidden field naming the project an unbound action acts in; never part of the act's input. */
const PROJECT_FIELD = "project";

/** The form as the schema reads it: one value per name, lists for `lists`, blank fields left out. */
export function formInput(form: FormData, lists: readonly string[] = []): Record<string, string | string[]> {
  const input: Record<string, string | string[]> = {};
  for (const name of lists) input[name] = [];
  for (const [name, value] of form.entries()) {
    if (typeof value !== "string" || name.startsWith("$ACTION") || name === PROJECT_FIELD) continue;
    if (lists.includes(name)) {
      if (value !== "") (input[name] as string[]).push(value);
    } else if (value !== "") input[name] = value;
  }
  return input;
}

/** What was typed, to fill the form again after an error (passwords left out; nothing when no form came). */
export function formValues(form: unknown): FormValues {
  const values: FormValues = {};
  if (!(form instanceof FormData)) return values;
  for (const [name, value] of form.entries()) {
    if (typeof value !== "string" || name.startsWith("$ACTION") || NEVER_ECHOED.has(name)) continue;
    const previous = values[name];
    values[name] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return values;
}

/**
 * The form through its schema; a field at fault is named in the message the form shows. A field
 * holding text Postgres cannot store (NUL, a lone surrogate) is refused first, whatever its schema:
 * written as it is, it would fail the act's query (a 500) or be stored changed.
 */
function parseForm<I>(schema: z.ZodType<I>, value: Record<string, string | string[]>): I {
  const unstorable = Object.entries(value).flatMap(([path, v]) =>
    (Array.isArray(v) ? v : [v]).flatMap((text) => {
      const message = unstorableText(text);
      return message ? [{ path, message }] : [];
    }),
  );
  if (unstorable.length > 0)
    throw new AppError("VALIDATION_FAILED", `Check the form (${unstorable[0]!.path}: ${unstorable[0]!.message})`, {
      fields: unstorable,
    });
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields = zodFields(result.error);
  const first = fields[0]!;
  const message = first.path === "(body)" ? first.message : `${first.path}: ${first.message}`;
  throw new AppError("VALIDATION_FAILED", `Check the form (${message})`, { fields });
}

/**
 * A server action's arguments come from the request body, decoded by the framework: anyone can send
 * `[]` or `[null, 5]` in place of a form. Such a call is a bad request, not a TypeError (a 500).
 */
export function requireForm(form: unknown): FormData {
  if (form instanceof FormData) return form;
  throw new AppError("VALIDATION_FAILED", "The request carries no form: submit the page's form", {
    fields: [{ path: "(form)", message: "not a form" }],
  });
}

/** An action's answer to a failure: the error's code and message, and what was typed. */
function failure<T>(error: unknown, form: unknown): ActionResult<T> {
  const appError = toAppError(error);
  if (appError.code === "INTERNAL") console.error("Server action failed", error);
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

function success<T>(outcome: ActionOutcome<T>): ActionResult<T> {
  return typeof outcome === "string" ? { ok: true, message: outcome } : { ok: true, ...outcome };
}

/**
 * The one way to write a server action inside a project: same-origin check, sign-in, membership of
 * the project (NOT_FOUND for a non-member, as for a project that does not exist), the permission
 * checked against the caller's role there, the form validated by its schema (422 VALIDATION_FAILED
 * with the fields at fault), the act (given the project; it audits with the actor given here, in its
 * own transaction), the project's pages revalidated, and the ActionResult shape; on an error the
 * form gets back what was typed.
 */
export function defineAction<I, T = undefined>(
  definition: ActionDefinition<I, T>,
  environment: ActionEnvironment = NEXT_ENVIRONMENT,
): ProjectAction<T> {
  return async (bound, _previous, sent) => {
    try {
      requireSameOrigin(await environment.headers());
      const user = await environment.currentUser();
      if (!user) throw new AppError("UNAUTHENTICATED", "Sign in first");
      const form = requireForm(sent);
      const named = typeof bound === "string" ? bound : form.get(PROJECT_FIELD);
      if (typeof named !== "string" || named === "") throw new AppError("NOT_FOUND", "No such project");
      const permission = typeof definition.permission === "function" ? definition.permission(form) : definition.permission;
      const { project, role } = await memberAccess(user, named, permission);
      const input = parseForm(definition.input, formInput(form, definition.lists));
      const outcome = await definition.run({ input, user, actor: actorOf(user), project, role });
      const paths =
        typeof definition.revalidate === "function" ? definition.revalidate(input, outcome) : (definition.revalidate ?? []);
      for (const path of paths) environment.revalidate(projectPath(project.slug, path));
      return success(outcome);
    } catch (error) {
      return failure(error, sent);
    }
  };
}

/**
 * A server action of the instance admin (projects, people's instance roles, members of any
 * project): same-origin check, sign-in, the caller's instance role ADMIN, then as defineAction.
 */
export function defineInstanceAction<I, T = undefined>(
  definition: InstanceActionDefinition<I, T>,
  environment: ActionEnvironment = NEXT_ENVIRONMENT,
): FormAction<T> {
  return signedInAction(definition, environment, requireInstanceRole);
}

/**
 * An act of the signed-in person on their own account (password, sessions): same-origin check,
 * sign-in, then as defineAction, with no project and no role asked for.
 */
export function defineAccountAction<I, T = undefined>(
  definition: InstanceActionDefinition<I, T>,
  environment: ActionEnvironment = NEXT_ENVIRONMENT,
): FormAction<T> {
  return signedInAction(definition, environment, () => {});
}

/** An action outside any project: same-origin check, sign-in, `authorise`, then the act. */
function signedInAction<I, T>(
  definition: InstanceActionDefinition<I, T>,
  environment: ActionEnvironment,
  authorise: (user: SignedInUser) => void,
): FormAction<T> {
  return async (_previous, sent) => {
    try {
      requireSameOrigin(await environment.headers());
      const user = await environment.currentUser();
      if (!user) throw new AppError("UNAUTHENTICATED", "Sign in first");
      authorise(user);
      const input = parseForm(definition.input, formInput(requireForm(sent), definition.lists));
      const outcome = await definition.run({ input, user, actor: actorOf(user) });
      for (const path of definition.revalidate ?? []) environment.revalidate(path);
      return success(outcome);
    } catch (error) {
      return failure(error, sent);
    }
  };
}

"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { requireSameOrigin } from "@/lib/auth/define-action";
import { getAuth } from "@/lib/auth/server";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { AppError } from "@/lib/core/errors";
import { projectHref } from "@/components/project-href";
import { listProjectsOf } from "@/lib/server/admin";

export interface SignInState {
  error?: string;
}

/** The requester's headers, refused unless the form was sent from this site. */
async function sameOriginHeaders(): Promise<Headers> {
  const requestHeaders = new Headers(await headers());
  requireSameOrigin(requestHeaders);
  return requestHeaders;
}

/** The sign-in form: throttled per account and per address; a wrong password is never a 500. */
export async function signInAction(_previous: SignInState, form: FormData): Promise<SignInState> {
  let requestHeaders: Headers;
  try {
    requestHeaders = await sameOriginHeaders();
  } catch (error) {
    if (error instanceof AppError) return { error: error.message };
    throw error;
  }
  // The arguments are whatever the request body decodes to: anything but a form is no sign-in.
  if (!(form instanceof FormData)) return { error: "Enter your email and password." };
  const email = String(form.get("email") ?? "").trim();
  const password = String(form.get("password") ?? "");
  if (!email || !password) return { error: "Enter your email and password." };
  const outcome = await signInWithPassword(email, password, requestHeaders);
  if (!outcome.ok) return { error: outcome.error };
  // Straight to the person's first project: through "/" the browser showed an empty page between
  // the two redirects.
  const [first] = outcome.userId ? await listProjectsOf(outcome.userId) : [];
  redirect(first ? projectHref(first.slug) : "/");
}

/** Signs out; a form posted from another site (or naming none) signs nobody out, and is no 500 either. */
export async function signOutAction(): Promise<void> {
  let requestHeaders: Headers;
  try {
    requestHeaders = await sameOriginHeaders();
  } catch (error) {
    if (error instanceof AppError) return;
    throw error;
  }
  await getAuth().api.signOut({ headers: requestHeaders });
  redirect("/login");
}

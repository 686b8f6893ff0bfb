"use server";

import { APIError } from "better-auth/api";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { requireSameOrigin } from "@/lib/auth/define-action";
import { getAuth } from "@/lib/auth/server";
import { AppError } from "@/lib/core/errors";

export interface SignInState {
  error?: string;
}

/** The requester's headers, refused unless the form was sent from this site. */
async function sameOriginHeaders(): Promise<Headers> {
  const requestHeaders = new Headers(await headers());
  requireSameOrigin(requestHeaders);
  return requestHeaders;
}

export async function signInAction(_previous: SignInState, form: FormData): Promise<SignInState> {
  try {
    await sameOriginHeaders();
  } catch (error) {
    if (error instanceof AppError) return { error: error.message };
    throw error;
  }
  const email = String(form.get("email") ?? "").trim();
  const password = String(form.get("password") ?? "");
  if (!email || !password) return { error: "Enter your email and password." };
  try {
    await getAuth().api.signInEmail({ body: { email, password }, headers: await headers() });
  } catch (error) {
    if (error instanceof APIError) return { error: "That email and password do not match an account." };
    throw error;
  }
  redirect("/sessions");
}

export async function signOutAction(): Promise<void> {
  await getAuth().api.signOut({ headers: await sameOriginHeaders() });
  redirect("/login");
}

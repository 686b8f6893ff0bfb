import { getAuth } from "./server";

/** The one answer to a wrong password or an unknown email: it never tells which. */
export const WRONG_CREDENTIALS = "Wrong email or password.";

/** Signed in (with the person's id where the library names them), or refused with what to show. */
export type SignInOutcome = { ok: true; userId?: string } | { ok: false; error: string };

interface AuthLibraryError {
  statusCode: number;
  message: string;
}

/**
 * An error of the sign-in library, recognised by its shape: the server action and the route handler
 * are bundled apart, each with its own copy of the library, so `instanceof APIError` fails for an
 * error thrown by the copy that built the shared auth instance (a wrong password then answered 500).
 */
export function asAuthLibraryError(error: unknown): AuthLibraryError | null {
  if (!(error instanceof Error) || error.name !== "APIError") return null;
  const statusCode = (error as { statusCode?: unknown }).statusCode;
  return typeof statusCode === "number" ? { statusCode, message: error.message } : null;
}

/**
 * Signs in with email and password (the session cookie is set by the library), throttled per
 * account and per address (see sign-in-throttle.ts). Any refusal of the library below 500 is the
 * same "wrong email or password"; only throttling says something else.
 */
export async function signInWithPassword(
  email: string,
  password: string,
  headers: Headers,
  signIn: (request: { body: { email: string; password: string }; headers: Headers }) => Promise<unknown> = (request) =>
    getAuth().api.signInEmail(request),
): Promise<SignInOutcome> {
  try {
    const result = (await signIn({ body: { email: email.trim(), password }, headers })) as { user?: { id?: unknown } } | null;
    const userId = result?.user?.id;
    return typeof userId === "string" ? { ok: true, userId } : { ok: true };
  } catch (error) {
    const refusal = asAuthLibraryError(error);
    if (!refusal || refusal.statusCode >= 500) throw error;
    return { ok: false, error: refusal.statusCode === 429 ? refusal.message : WRONG_CREDENTIALS };
  }
}

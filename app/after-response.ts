import { after } from "next/server";

/**
 * Work a response does not depend on (keeping an evidence question's verdicts), run once the
 * response has been sent; a failure is logged, never shown to the caller. Called outside a request
 * (a script, a test calling a handler directly), the work runs at once.
 */
export async function afterResponse(work: () => Promise<void>): Promise<void> {
  const logged = () => work().catch((error: unknown) => console.error("Work after the response failed", error));
  try {
    after(logged);
  } catch {
    await logged();
  }
}

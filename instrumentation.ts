/**
 * Next.js calls `register` once when a server process starts: Custodian uses it to run the
 * retention sweeper on a schedule and to close import jobs a previous process left running.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || !process.env.DATABASE_URL) return;
  const { startBackgroundWork } = await import("@/lib/server/background");
  startBackgroundWork();
}

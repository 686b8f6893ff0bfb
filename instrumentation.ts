/**
 * Next.js calls `register` once when a server process starts: Custodian uses it to run the
 * retention sweeper on a schedule and to close import jobs a previous process left running.
 */
export async function register() {
  // Read directly: Next.js replaces it at build time, which keeps the edge bundle free of the rest.
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // A bad variable stops the server here, at start, in one line naming it.
  const { env } = await import("@/lib/core/env");
  if (!env().DATABASE_URL) return;
  const { startBackgroundWork } = await import("@/lib/server/background");
  startBackgroundWork();
}

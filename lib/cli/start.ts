/**
 * `npm start`: brings Custodian up on DATABASE_URL or, when unset, on the embedded database with
 * demo data, builds the app if its build is missing or stale, and serves it.
 */
import { env } from "@/lib/core/env";
import { ensureBuilt } from "@/lib/runner/build";
import { assertPortFree } from "@/lib/runner/port";
import { runMain } from "@/lib/runner/run-main";
import { spawnServer } from "@/lib/runner/server-process";
import { disconnectDb } from "@/lib/db/client";
import { DEMO_PASSWORD, DEMO_USERS } from "@/lib/demo/load";
import { prepareFirstRun } from "./first-run";

async function main() {
  const dev = process.argv.includes("--dev");
  const { PORT: port, HOST: host } = env();
  await assertPortFree(port, host);

  const { database, demo, demoUsers } = await prepareFirstRun();
  console.log(`Database: ${database.mode === "embedded" ? "embedded (.custodian/pgdata)" : "postgres"}, migrations applied.`);
  if (demo) console.log(`Loaded the demo project "${demo.projectSlug}": ${demo.sessions} sessions, ${demo.spans} spans.`);
  await disconnectDb();

  if (!dev) await ensureBuilt();
  const server = spawnServer({ dev, port, host });
  // Said last, once the server answers, so the address and the sign-in are the lines left on screen.
  const url = `http://${host === "0.0.0.0" ? "localhost" : host}:${port}`;
  void answering(`${url}/api/v1/health`).then((up) => {
    if (!up) return;
    console.log(`\nCustodian: ${url}`);
    if (demoUsers) {
      console.log(`Demo sign-in: ${DEMO_USERS.map((u) => u.email).join(", ")} (one per role), password "${DEMO_PASSWORD}".`);
    }
  });

  const shutdown = async (code: number) => {
    await database.stop();
    process.exit(code);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      server.kill(signal);
    });
  }
  server.on("exit", (code) => void shutdown(code ?? 0));
}

/** Whether the server at `url` answers (any status) within a few minutes of starting. */
async function answering(url: string, attempts = 600): Promise<boolean> {
  for (let i = 0; i < attempts; i++) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return true;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return false;
}

runMain(main);

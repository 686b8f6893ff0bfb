import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { StartupError } from "./startup-error";

const MIGRATIONS_DIR = path.resolve(process.cwd(), "prisma", "migrations");

/** The migrations committed in prisma/migrations, oldest first. */
export function committedMigrations(): string[] {
  return readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/**
 * What `migrate deploy` prints last, once every migration is applied and its engine stopped (its
 * result, printed as the command returns; coloured or not).
 */
const DEPLOYED = /No pending migrations to apply\.|All migrations have been successfully applied\./;

/**
 * Applies pending migrations with Prisma's own `migrate deploy`: the migrations folder is the only
 * way the schema changes. Asynchronous on purpose: the embedded database may be served by this
 * very process, and a blocking child would deadlock against it.
 *
 * The command is done when it prints its result, but its process lingers 10 s more on a timer its
 * schema engine leaves behind (every deploy, whatever it applied), so it is stopped then. Were the
 * wording ever to change, the deploy would only take those 10 s again: the exit still decides.
 */
export async function applyMigrations(databaseUrl: string): Promise<void> {
  const prismaCli = createRequire(import.meta.url).resolve("prisma/build/index.js");
  const child = spawn(process.execPath, [prismaCli, "migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let deployed = false;
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    if (!deployed && DEPLOYED.test(output)) {
      deployed = true;
      child.kill();
    }
  });
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
  if (status !== 0 && !deployed) {
    const line = output.split("\n").find((l) => /^Error|P\d{4}/.test(l.trim())) ?? "see `npx prisma migrate status`";
    throw new StartupError(`Applying database migrations failed: ${line.trim()}`);
  }
}

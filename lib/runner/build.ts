import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { StartupError } from "@/lib/db/startup-error";

const SOURCE_DIRS = ["app", "components", "lib", "public"];
const SOURCE_FILES = ["next.config.ts", "package.json", "tsconfig.json"];
const SKIP = new Set(["generated", "node_modules", "fixtures"]);

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const child of readdirSync(entry)) {
    if (SKIP.has(child)) continue;
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

/** True when there is no production build or a source file changed after it was made. */
export function buildIsStale(root = process.cwd()): boolean {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const builtAt = statSync(buildId).mtimeMs;
  return [...SOURCE_DIRS, ...SOURCE_FILES].some((entry) => newestMtime(path.join(root, entry)) > builtAt);
}

/**
 * `npm run build` when the build is stale: the hooks' bundle and the import parser's worker (which
 * the built server starts) as well as the dashboard, so a server never runs a newer dashboard
 * beside an older worker.
 */
export async function ensureBuilt(): Promise<void> {
  if (!buildIsStale()) return;
  console.log("Building the dashboard (once; about a minute)...");
  const child = spawn(process.platform === "win32" ? "npm.cmd" : "npm", ["run", "-s", "build"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  if (code !== 0) throw new StartupError("The dashboard build failed (see the output above).");
}

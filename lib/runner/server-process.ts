import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const SERVE_ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "cli", "serve.ts");

/**
 * Starts the web server (lib/cli/serve.ts) in a process of its own, as `next start` or `next dev`
 * ran before: on `port` and `host`, with `environment` added to this process's.
 */
export function spawnServer(options: {
  dev: boolean;
  port: number | string;
  host: string;
  environment?: Record<string, string | undefined>;
}): ChildProcess {
  const tsx = createRequire(import.meta.url).resolve("tsx/cli");
  return spawn(process.execPath, [tsx, SERVE_ENTRY, ...(options.dev ? ["--dev"] : [])], {
    stdio: "inherit",
    env: {
      ...process.env,
      ...options.environment,
      PORT: String(options.port),
      HOST: options.host,
      NODE_ENV: options.dev ? "development" : "production",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  });
}

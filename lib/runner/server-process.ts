import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const SERVE_ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "cli", "serve.ts");

/**
 * V8 flags of the web server's process (set on its command line: NODE_OPTIONS refuses the first).
 * A server that is idle between hooks and questions looks to V8's memory reducer like a process to
 * shrink: it started full collections that the next request then waited for (10 to 40 ms on two
 * cores). A larger young generation (64 MB semi-spaces, about 128 MB more at peak) collects a
 * request's garbage young instead of promoting it, so full collections come less often.
 * Measured with bench:hook's HTTP PreCompact: p95 62 to 65 ms without the flags (three runs of 40),
 * 40 to 44 ms with them (three runs of bench:hook, 20 each).
 */
export const SERVER_NODE_FLAGS = ["--no-memory-reducer", "--max-semi-space-size=64"] as const;

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
  // tsx's loader in this process (tsx's own command would start another node without the flags).
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  return spawn(process.execPath, [...SERVER_NODE_FLAGS, "--import", tsx, SERVE_ENTRY, ...(options.dev ? ["--dev"] : [])], {
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

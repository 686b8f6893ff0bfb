/**
 * What an installed runtime hook runs: `node hook-launch.mjs <bundle> hook <runtime> <event>`.
 * Starts the hooks' bundle (`npm run build:hook`, under node_modules); when it cannot be loaded
 * (node_modules reinstalled without its scripts, its cache cleared), a runtime must still get one
 * line on stderr and its answer for "continue", or fail-closed before compaction for "block",
 * never node's stack trace. Plain JavaScript beside the sources, so it outlives node_modules; it
 * reads the fail-closed setting as ./hook-config.ts does, without loading any of the project
 * (hook-launch.test.ts holds the two to the same answers).
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [bundle = "", ...args] = process.argv.slice(2);
process.argv.splice(2, 1); // the bundle reads its arguments as `hook <runtime> <event>`

/** CUSTODIAN_FAIL_CLOSED, else the config file's failClosed. */
function failClosed(env = process.env) {
  const flag = (v) => (typeof v === "boolean" ? v : typeof v === "string" && v !== "" ? /^(1|true|yes|on)$/i.test(v) : undefined);
  let file = {};
  try {
    const path =
      env.CUSTODIAN_CONFIG || join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "custodian", "config.json");
    file = JSON.parse(readFileSync(path, "utf8")) ?? {};
  } catch {
    // no file, or not JSON: the environment alone decides
  }
  return flag(env.CUSTODIAN_FAIL_CLOSED) ?? flag(file.failClosed) ?? false;
}

try {
  await import(pathToFileURL(bundle).href);
} catch (error) {
  const missing = error?.code === "ERR_MODULE_NOT_FOUND" || error?.code === "ENOENT";
  const reason = missing
    ? `the hook bundle ${bundle} is missing (run npm run build:hook in the Custodian checkout)`
    : `the hook bundle ${bundle} could not be loaded (${String(error?.message ?? error).split("\n")[0]})`;
  const [group, runtime, event] = args;
  const blocks = group === "hook" && event === "pre-compact" && failClosed();
  if (!blocks) {
    process.stderr.write(`custodian: ${reason} (compaction continues: fail-open)\n`);
  } else if (runtime === "codex") {
    const stopReason = `Custodian blocked compaction: ${reason}`;
    process.stdout.write(`${JSON.stringify({ continue: false, stopReason })}\n`);
    process.stderr.write(`${stopReason}\n`);
  } else {
    process.stderr.write(`Custodian blocked compaction: ${reason}\n`);
    process.exitCode = 2;
  }
}

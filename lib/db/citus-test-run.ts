/**
 * `npm run test:citus`: the Citus layer (vitest.citus.config.ts) against the coordinator at
 * CITUS_URL; without it, says why nothing ran and succeeds (docs/citus.md, "Tests").
 */
import { spawn } from "node:child_process";

const url = process.env.CITUS_URL;
if (!url) {
  console.log("test:citus skipped: CITUS_URL is not set (the URL of a Citus coordinator's postgres database; docs/citus.md).");
  process.exit(0);
}
if (!/^postgres(ql)?:\/\/[^\s]+$/.test(url)) {
  console.error(`test:citus: CITUS_URL=${JSON.stringify(url)} is not one postgresql:// URL (docs/citus.md).`);
  process.exit(1);
}
const started = Date.now();
const child = spawn(
  process.execPath,
  ["node_modules/vitest/vitest.mjs", "run", "--config", "vitest.citus.config.ts", ...process.argv.slice(2)],
  { stdio: "inherit", env: { ...process.env, TEST_DATABASE_URL: url, CUSTODIAN_TEST_CITUS: "1" } },
);
child.on("close", (code) => {
  console.log(`test:citus: ${((Date.now() - started) / 1000).toFixed(1)} s against ${new URL(url).host}`);
  process.exit(code ?? 1);
});

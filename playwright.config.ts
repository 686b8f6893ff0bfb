import { existsSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { defineConfig } from "@playwright/test";

// Chosen once here and kept in process.env, so every worker (which reloads this file) agrees.
process.env.E2E_PORT ??= String(3100 + Math.floor(Math.random() * 800));
process.env.E2E_DATABASE ??= `custodian_e2e_${randomBytes(4).toString("hex")}`;

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

export default defineConfig({
  testDir: "e2e",
  outputDir: "e2e/artifacts/results",
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: [["list"]],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  globalTeardown: "./e2e/support/global-teardown.ts",
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    // Debian's Chromium where present; elsewhere Playwright's own browser.
    launchOptions: existsSync(chromium)
      ? { executablePath: chromium, args: ["--disable-background-networking", "--disable-component-update", "--no-first-run"] }
      : {},
  },
  webServer: {
    command: "npx tsx e2e/support/serve.ts",
    url: `${baseURL}/api/v1/health`,
    // Includes a production build when the sources changed since the last one (serve.ts).
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
  },
});

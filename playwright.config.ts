import { existsSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

// Chosen once here and kept in process.env, so every worker (which reloads this file) agrees.
process.env.E2E_PORT ??= String(3100 + Math.floor(Math.random() * 800));
process.env.E2E_DATABASE ??= `custodian_e2e_${randomBytes(4).toString("hex")}`;
// The first command's server (`npm start` on the embedded database, in a folder of this run's own).
process.env.E2E_EMBEDDED_PORT ??= String(Number(process.env.E2E_PORT) + 800);
process.env.E2E_EMBEDDED_DIR ??= path.join(tmpdir(), `custodian-e2e-embedded-${randomBytes(4).toString("hex")}`);
// Which half of the accessibility matrix axe checks in this run (a11ySample in e2e/support/pages.ts):
// the UTC day, fixed here once so that a run across midnight agrees with itself.
process.env.E2E_A11Y_ROTATION ??= String(Math.floor(Date.now() / 86_400_000));

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;
const embeddedURL = `http://127.0.0.1:${process.env.E2E_EMBEDDED_PORT}`;

export default defineConfig({
  testDir: "e2e",
  outputDir: "e2e/artifacts/results",
  fullyParallel: false,
  // Three browsers at once on two cores: a page test waits on the server, the database and the
  // browser in turn, and with two a core sat idle through much of each wait (the whole run, on the
  // same busy machine: 233 s with two, 162 s with three). Tests that change a project's data (policy,
  // pins, saved questions) seed a project of their own, and the one that takes the database away
  // runs alone (the database-gone project).
  workers: 3,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: [["list"]],
  // Limits that stop a hang, not speed tests: a test that checks a page at four sizes and schemes
  // takes seconds alone and several times that when the machine is busy.
  timeout: 120_000,
  expect: { timeout: 20_000 },
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
  projects: [
    { name: "postgres", testIgnore: /(first-command|database-gone)\.spec\.ts$/ },
    // Takes the database away from the server: alone, once every other test of that server is done.
    { name: "database-gone", testMatch: /database-gone\.spec\.ts$/, dependencies: ["postgres"] },
    { name: "embedded", testMatch: /first-command\.spec\.ts$/, use: { baseURL: embeddedURL } },
  ],
  webServer: [
    {
      command: "npx tsx e2e/support/serve.ts",
      url: `${baseURL}/api/v1/health`,
      // Includes a production build when the sources changed since the last one (serve.ts).
      timeout: 600_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
    },
    {
      // Exactly the README's first command but for where it keeps its data and listens.
      command: "npx tsx lib/cli/start.ts",
      url: `${embeddedURL}/api/v1/health`,
      env: {
        PORT: process.env.E2E_EMBEDDED_PORT,
        CUSTODIAN_DATA_DIR: path.join(process.env.E2E_EMBEDDED_DIR, "pgdata"),
        DATABASE_URL: "",
        BETTER_AUTH_SECRET: "e2e-only-secret-0123456789abcdef0123456789",
      },
      timeout: 600_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
    },
  ],
});

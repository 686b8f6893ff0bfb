import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

// Three projects: pure unit tests run in parallel; tests that touch data (*.db.test.ts) run side
// by side, each worker in its own copy of one freshly migrated database (lib/db/test-database.ts); the
// smoke layer (*.embedded.test.ts) runs the first command's path on the embedded database.
export default defineConfig({
  resolve: { alias: { "@": root } },
  test: {
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, which leaves
    // a core idle while a worker waits on Postgres or on loading a file. Three keep both busy.
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "components/**/*.test.ts", "app/**/*.test.ts"],
          exclude: ["**/*.db.test.ts", "**/*.embedded.test.ts", "**/*.citus.test.ts", "node_modules/**"],
          environment: "node",
          // Pure tests share nothing through module state (no module mocks here: those live in the
          // db project), so a worker reuses its loaded modules across files instead of loading
          // every file's imports afresh, which was most of this project's time.
          isolate: false,
          // A limit that stops a hang, not a speed test: property tests over real files take seconds
          // alone and several times that on a busy machine.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: "db",
          include: ["lib/**/*.db.test.ts", "app/**/*.db.test.ts"],
          environment: "node",
          globalSetup: ["lib/db/test-global-setup.ts"],
          setupFiles: ["lib/db/test-setup.ts"],
          // Limits that stop a hang, never a verdict on speed: on a machine busy with other work,
          // tests of a few seconds took over 30 s and failed by the clock alone.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: "embedded",
          include: ["lib/**/*.embedded.test.ts", "app/**/*.embedded.test.ts"],
          environment: "node",
          globalSetup: ["lib/cli/embedded-global-setup.ts"],
          setupFiles: ["lib/db/embedded-setup.ts"],
          fileParallelism: false,
          // A question that waits on itself never answers: the test fails at this limit, not later.
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

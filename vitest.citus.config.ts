import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

/**
 * The Citus layer (`npm run test:citus`, docs/citus.md): the db suite's tests of ingest, the gate,
 * questions, the what-if, the sweeper, the derived state, the OTLP upkeep and two servers sharing
 * the background work, unchanged, in databases made on a Citus coordinator and distributed
 * (lib/db/test-database.ts), and the checks of the layout itself (*.citus.test.ts). One worker:
 * each test database is migrated and distributed afresh.
 */
export const CITUS_SUITE = [
  "lib/server/ingest/*.db.test.ts",
  "lib/server/gate/*.db.test.ts",
  "lib/server/questions/*.db.test.ts",
  "lib/server/what-if/*.db.test.ts",
  "lib/server/retention/sweeper.db.test.ts",
  "lib/server/derived-state.db.test.ts",
  "lib/server/integrations/otlp-upkeep.db.test.ts",
  "lib/server/background/two-servers.db.test.ts",
  // The refusals list's one statement: its page, a request's details and the totals, distributed.
  "lib/server/dashboard/refusal-list.db.test.ts",
];

export default defineConfig({
  resolve: { alias: { "@": root } },
  test: {
    name: "citus",
    include: [...CITUS_SUITE, "lib/**/*.citus.test.ts"],
    environment: "node",
    globalSetup: ["lib/db/test-global-setup.ts"],
    setupFiles: ["lib/db/test-setup.ts"],
    maxWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});

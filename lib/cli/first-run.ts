import { env } from "@/lib/core/env";
import { prepareDatabase, type PreparedDatabase } from "@/lib/db/bootstrap";
import { hasDemoUsers, loadDemoIfEmpty, type DemoSummary } from "@/lib/demo/load";

/**
 * What `npm start` does before it serves: the database ready (embedded by default, migrated) and,
 * on the embedded one or with CUSTODIAN_DEMO=1, the demo loaded into it when empty. The smoke
 * layer of the test suite starts from the same function.
 */
export async function prepareFirstRun(): Promise<{
  database: PreparedDatabase;
  demo: DemoSummary | null;
  demoUsers: boolean;
}> {
  const database = await prepareDatabase();
  const withDemo = database.mode === "embedded" || env().CUSTODIAN_DEMO === "1";
  const demo = withDemo ? await loadDemoIfEmpty() : null;
  return { database, demo, demoUsers: withDemo && (await hasDemoUsers()) };
}

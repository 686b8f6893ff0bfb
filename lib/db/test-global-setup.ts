import type { TestProject } from "vitest/node";
import { createTestDatabase } from "./test-database";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's database as the application's role: what every test's `db()` connects as. */
    databaseUrl: string;
    /** The same database as its owner, for tests of what the application's role may not do. */
    ownerDatabaseUrl: string;
  }
}

/** One fresh, migrated database for the run's *.db.test.ts files; each test makes its own project in it. */
export default async function setup(project: TestProject) {
  const database = await createTestDatabase("test");
  project.provide("databaseUrl", database.url);
  project.provide("ownerDatabaseUrl", database.ownerUrl);
  return async () => {
    await database.drop();
  };
}

import type { TestProject } from "vitest/node";
import { createTestDatabase } from "./test-database";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

/** One fresh, migrated database for the run's *.db.test.ts files; each test makes its own project in it. */
export default async function setup(project: TestProject) {
  const database = await createTestDatabase("test");
  project.provide("databaseUrl", database.url);
  return async () => {
    await database.drop();
  };
}

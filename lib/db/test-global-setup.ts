import type { TestProject } from "vitest/node";
import { createTestDatabase, dropTestDatabases } from "./test-database";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's migrated template database; each worker works in its own copy (test-setup.ts). */
    testDatabaseTemplate: string;
  }
}

/** One fresh, migrated template for the run's *.db.test.ts files; each test makes its own project in its worker's copy. */
export default async function setup(project: TestProject) {
  const template = await createTestDatabase("test");
  project.provide("testDatabaseTemplate", template.name);
  return async () => {
    await dropTestDatabases(template.name);
  };
}

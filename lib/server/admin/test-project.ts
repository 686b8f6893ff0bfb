import { randomBytes } from "node:crypto";
import type { RetentionPolicy } from "@/lib/evidence/types";
import type { Actor } from "@/lib/server/audit";
import { createProject } from "./projects";

/** A project of its own for one database test, so tests never see each other's data. */
export async function makeTestProject(label: string, policy?: RetentionPolicy) {
  return createProject({ slug: `${label}-${randomBytes(4).toString("hex")}`, name: `Test ${label}`, policy });
}

/** Who a test's acts are audited as (keys it creates, people it invites). */
export const TEST_ACTOR: Actor = { type: "SYSTEM", label: "test" };

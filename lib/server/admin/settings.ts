import { db } from "@/lib/db/client";
import { policyFromRow } from "@/lib/server/retention";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";

/** Projects with their retention policy and API keys (prefixes only: keys are never stored). */
export async function listProjectSettings() {
  const projects = await db().project.findMany({
    orderBy: { createdAt: "asc" },
    include: { retentionPolicy: true, apiKeys: { orderBy: { createdAt: "asc" } } },
  });
  return projects.map((p) => ({
    id: p.id,
    slug: p.slug,
    name: p.name,
    policy: p.retentionPolicy ? policyFromRow(p.retentionPolicy) : DEFAULT_POLICY,
    policyIsDefault: p.retentionPolicy === null,
    cannedQuestions: p.retentionPolicy?.cannedQuestions ?? {},
    apiKeys: p.apiKeys.map((k) => ({
      id: k.id,
      name: k.name,
      prefix: k.prefix,
      role: k.role,
      createdAt: k.createdAt,
      revokedAt: k.revokedAt,
    })),
  }));
}

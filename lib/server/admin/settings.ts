import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { policyFromRow } from "@/lib/server/retention";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";

/** A project with its retention policy and API keys (prefixes only: keys are never stored). */
export async function projectSettings(projectId: string) {
  const projects = await db().project.findMany({
    where: { id: projectId },
    include: { retentionPolicy: true, apiKeys: { orderBy: { createdAt: "asc" } } },
  });
  const [settings] = projects.map((p) => ({
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
  if (!settings) throw new AppError("NOT_FOUND", "No such project");
  return settings;
}

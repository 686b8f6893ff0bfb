import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import type { RetentionPolicy } from "@/lib/evidence/types";
import { type Actor, writeAudit } from "@/lib/server/audit";
import { policyToRow } from "@/lib/server/retention";

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

/**
 * Creates a project (with a retention policy when given). With an actor (an instance admin, the
 * CLI) the act is audited as `project.create` in the same transaction, and a person who creates it
 * becomes its first admin member, so someone can see and manage it. Tests and seeds create theirs
 * without an actor.
 */
export async function createProject(input: { slug: string; name: string; policy?: RetentionPolicy }, actor?: Actor) {
  if (!SLUG.test(input.slug)) {
    throw new AppError("VALIDATION_FAILED", "Invalid project slug", {
      fields: [{ path: "slug", message: "lower-case letters, digits and dashes, starting with a letter or digit" }],
    });
  }
  const name = input.name.trim() || input.slug;
  try {
    return await db().$transaction(async (tx) => {
      const project = await tx.project.create({
        data: {
          id: randomUUID(),
          slug: input.slug,
          name,
          ...(input.policy ? { retentionPolicy: { create: policyToRow(input.policy) } } : {}),
        },
      });
      if (actor) {
        await writeAudit(tx, {
          projectId: project.id,
          actor,
          act: "project.create",
          targetType: "project",
          targetId: project.id,
          after: { slug: project.slug, name: project.name },
        });
        if (actor.type === "USER" && actor.id)
          await tx.projectMember.create({ data: { projectId: project.id, userId: actor.id, role: "ADMIN" } });
      }
      return project;
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new AppError("CONFLICT", `A project with slug "${input.slug}" exists already`, {
        fields: [{ path: "slug", message: "taken" }],
      });
    }
    throw error;
  }
}

/** Every project with its member count, oldest first: the instance admin's list. */
export async function listProjects() {
  const projects = await db().project.findMany({
    orderBy: { createdAt: "asc" },
    select: { id: true, slug: true, name: true, createdAt: true, _count: { select: { members: true } } },
  });
  return projects.map((p) => ({ id: p.id, slug: p.slug, name: p.name, createdAt: p.createdAt, members: p._count.members }));
}

export async function findProjectBySlug(slug: string) {
  const project = await db().project.findUnique({ where: { slug } });
  if (!project) throw new AppError("NOT_FOUND", `No project "${slug}"`);
  return project;
}

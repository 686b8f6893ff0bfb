import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import type { RetentionPolicy } from "@/lib/evidence/types";
import { policyToRow } from "@/lib/server/retention";

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

export async function createProject(input: { slug: string; name: string; policy?: RetentionPolicy }) {
  if (!SLUG.test(input.slug)) {
    throw new AppError("VALIDATION_FAILED", "Invalid project slug", {
      fields: [{ path: "slug", message: "lower-case letters, digits and dashes, starting with a letter or digit" }],
    });
  }
  try {
    return await db().project.create({
      data: {
        id: randomUUID(),
        slug: input.slug,
        name: input.name,
        ...(input.policy ? { retentionPolicy: { create: policyToRow(input.policy) } } : {}),
      },
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

export async function findProjectBySlug(slug: string) {
  const project = await db().project.findUnique({ where: { slug } });
  if (!project) throw new AppError("NOT_FOUND", `No project "${slug}"`);
  return project;
}

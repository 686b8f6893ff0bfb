import { db } from "@/lib/db/client";

/** How many sessions the Evidence page offers to scope a question to (most recently active first). */
const PICKER_SESSIONS = 500;

/**
 * What the Evidence page's form offers: the projects, the one chosen (by slug, else the first),
 * and that project's most recently active sessions.
 */
export async function evidencePicker(projectSlug: string | null) {
  const projects = await db().project.findMany({ orderBy: { createdAt: "asc" }, select: { id: true, slug: true } });
  const project = projects.find((p) => p.slug === projectSlug) ?? projects[0];
  const sessions = project
    ? await db().session.findMany({
        where: { projectId: project.id },
        orderBy: { lastActivityAt: "desc" },
        take: PICKER_SESSIONS,
        select: { id: true, title: true, externalId: true },
      })
    : [];
  return { projects, project, sessions };
}

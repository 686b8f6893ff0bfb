import { db } from "@/lib/db/client";

/** Projects whose retention the dashboard shows, by slug; the page picks one by id. */
export async function listRetentionProjects(): Promise<Array<{ id: string; slug: string; name: string }>> {
  return db().project.findMany({ select: { id: true, slug: true, name: true }, orderBy: { slug: "asc" } });
}

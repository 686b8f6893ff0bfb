import { notFound } from "next/navigation";
import { listRetentionProjects } from "@/lib/server/retention";

/** The project the retention pages show: `?project=<id>`, else the first. */
export async function pickProject(searchParams: Promise<Record<string, string | string[] | undefined>>) {
  const [projects, params] = await Promise.all([listRetentionProjects(), searchParams]);
  const asked = typeof params.project === "string" ? params.project : undefined;
  const project = asked ? projects.find((p) => p.id === asked || p.slug === asked) : projects[0];
  if (asked && !project) notFound();
  return { project, projects };
}

import { redirect } from "next/navigation";
import { projectHref } from "@/components/project-href";
import { requireMember } from "@/lib/auth/project-access";

/** A project's first page: its sessions, for now (a non-member gets 404 before the redirect). */
export default async function ProjectHome({ params }: { params: Promise<{ slug: string }> }) {
  const { project } = await requireMember((await params).slug);
  redirect(projectHref(project.slug, "/sessions"));
}

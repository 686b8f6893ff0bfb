import Link from "next/link";
import type { ReactNode } from "react";
import { Code } from "@/components/Code";
import { ProjectSwitcher } from "@/components/ProjectSwitcher";
import { QueryProvider } from "@/components/QueryProvider";
import { SearchBox } from "@/components/SearchBox";
import { projectHref } from "@/components/project-href";
import { SideNav } from "@/components/SideNav";
import { requireMember } from "@/lib/auth/project-access";
import { can } from "@/lib/core/permissions";
import { listProjectsOf } from "@/lib/server/admin";
import { signOutAction } from "@/app/login/actions";

/**
 * Every page of a project: the project switcher (the person's projects) and the project's nav. The
 * layout's own check does not stop a page from rendering, so every page checks membership itself first.
 * No loading.tsx under a project: a loading boundary starts the response (status 200, the skeleton)
 * before the page runs, so a non-member's notFound() would arrive as a 200 page instead of a 404.
 */
export default async function ProjectLayout({ children, params }: { children: ReactNode; params: Promise<{ slug: string }> }) {
  const { user, project, role } = await requireMember((await params).slug);
  const projects = await listProjectsOf(user.id);
  return (
    <div className="shell">
      <SideNav project={project.slug} canManage={can(role, "users:manage")} instanceAdmin={user.role === "ADMIN"}>
        <ProjectSwitcher current={project} projects={projects.map((p) => ({ slug: p.slug, name: p.name }))} />
        <div className="who">
          <div>{user.email}</div>
          <div className="role">
            <Code value={role} /> in {project.name}
          </div>
          <Link href="/account">Your account</Link>
          <form action={signOutAction}>
            <button type="submit" className="link-button">
              Sign out
            </button>
          </form>
        </div>
      </SideNav>
      <main className="content" id="main">
        <SearchBox action={projectHref(project.slug, "/search")} />
        <QueryProvider>{children}</QueryProvider>
      </main>
    </div>
  );
}

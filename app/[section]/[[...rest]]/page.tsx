import { notFound, redirect } from "next/navigation";
import { projectHref } from "@/components/project-href";
import { requireUser } from "@/lib/auth/session";
import { listProjectsOf, projectHolding } from "@/lib/server/admin";

/** The dashboard's sections before they moved under /projects/{slug}/. */
const SECTIONS = new Set(["sessions", "spans", "refusals", "evidence", "retention", "audit", "settings"]);

/**
 * Links from before projects had URLs (/sessions/<id>, /evidence?project=..., /retention/history):
 * the same page in the person's first project that holds the session or span, or that the old
 * `project` parameter named (by slug or id), else in their first project. Only their own projects
 * are ever looked in; any other path is a 404.
 */
export default async function OldDashboardLink({
  params,
  searchParams,
}: {
  params: Promise<{ section: string; rest?: string[] }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { section, rest = [] } = await params;
  if (!SECTIONS.has(section)) notFound();
  const user = await requireUser();
  const projects = await listProjectsOf(user.id);
  if (projects.length === 0) redirect("/");
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(await searchParams))
    for (const v of [value].flat()) if (v !== undefined) query.append(key, v);
  const named = query.get("project");
  query.delete("project");
  const id = rest[0];
  const holder =
    (id && (section === "sessions" || section === "spans")
      ? await projectHolding(user.id, section === "sessions" ? "session" : "span", id)
      : null) ?? projects.find((p) => p.slug === named || p.id === named)?.slug;
  const slug = holder ?? projects[0]!.slug;
  const path = [section, ...rest].map(encodeURIComponent).join("/");
  const text = query.toString();
  redirect(projectHref(slug, `/${path}${text ? `?${text}` : ""}`));
}

"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { projectHref } from "./project-href";

/**
 * The person's projects, to move between them. The same section of the other project is opened
 * (Refusals stays Refusals); a page of one session or span is not carried over, since its id belongs
 * to this project only.
 */
export function ProjectSwitcher({
  current,
  projects,
}: {
  current: { slug: string; name: string };
  projects: Array<{ slug: string; name: string }>;
}) {
  const pathname = usePathname();
  const section = pathname.slice(projectHref(current.slug).length).split("/")[1] ?? "";
  const keep = ["sessions", "refusals", "evidence", "retention", "audit"].includes(section) ? `/${section}` : "";
  if (projects.length < 2) return <div className="project-name">{current.name}</div>;
  return (
    <details className="project-switcher">
      <summary>
        Project: <strong>{current.name}</strong>
      </summary>
      <ul aria-label="Your projects">
        {projects.map((p) => (
          <li key={p.slug}>
            <Link href={projectHref(p.slug, keep)} aria-current={p.slug === current.slug ? "true" : undefined}>
              {p.name}
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}

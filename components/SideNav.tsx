"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { usePathname } from "next/navigation";
import { projectHref } from "./project-href";

const SECTIONS = [
  { path: "", label: "Overview" },
  { path: "/sessions", label: "Sessions" },
  { path: "/refusals", label: "Refusals" },
  { path: "/evidence", label: "Evidence" },
  { path: "/imports", label: "Imports" },
  { path: "/retention", label: "Retention" },
  { path: "/audit", label: "Audit log" },
  { path: "/settings", label: "Settings", managersOnly: true },
] as const;

/**
 * The project's sections. `canManage`: the person may manage this project's people and keys
 * (Settings answers 404 to anyone else); `instanceAdmin`: they also get the instance admin's page.
 */
export function SideNav({
  project,
  children,
  canManage = false,
  instanceAdmin = false,
}: {
  project: string;
  children?: ReactNode;
  canManage?: boolean;
  instanceAdmin?: boolean;
}) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="side-nav">
      <Link href={projectHref(project)} className="brand">
        Custodian
      </Link>
      <ul>
        {SECTIONS.filter((section) => canManage || !("managersOnly" in section)).map((section) => {
          const href = projectHref(project, section.path);
          // The overview is the project's root: current on it alone, not on every page below it.
          const active = pathname === href || (section.path !== "" && pathname.startsWith(`${href}/`));
          return (
            <li key={section.path}>
              <Link href={href} aria-current={active ? "page" : undefined}>
                {section.label}
              </Link>
            </li>
          );
        })}
        {instanceAdmin ? (
          <li>
            <Link href="/admin">Instance admin</Link>
          </li>
        ) : null}
      </ul>
      {children}
    </nav>
  );
}

"use client";

import type { ReactNode } from "react";
import { useCallback, useState } from "react";
import { usePathname, useSearchParams } from "next/navigation";
import Link from "next/link";
import { projectHref } from "./project-href";
import { SideNavLink } from "./SideNavLink";
import { RANGED_SECTIONS, withViewRange } from "./view-range";

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
 * While a section's page loads, its link is marked and a status line names it for screen readers.
 * The sections that read a time range get the current page's (view-range.ts).
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
  const search = useSearchParams();
  const [loading, setLoading] = useState<string | null>(null);
  // A link that stops loading clears the status only if it was the one named (another may have started).
  const onPending = useCallback(
    (label: string, pending: boolean) => setLoading((shown) => (pending ? label : shown === label ? null : shown)),
    [],
  );
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
              <SideNavLink
                href={RANGED_SECTIONS.has(section.path) ? withViewRange(href, search) : href}
                label={section.label}
                current={active}
                onPending={onPending}
              />
            </li>
          );
        })}
        {instanceAdmin ? (
          <li>
            <SideNavLink href="/admin" label="Instance admin" current={false} onPending={onPending} />
          </li>
        ) : null}
      </ul>
      {/* A live region without role="status": the page's own status messages stay the only ones by that role. */}
      <p aria-live="polite" className="visually-hidden">
        {loading ? `Loading ${loading}…` : ""}
      </p>
      {children}
    </nav>
  );
}

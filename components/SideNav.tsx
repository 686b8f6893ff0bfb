"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { usePathname } from "next/navigation";

const SECTIONS = [
  { href: "/sessions", label: "Sessions" },
  { href: "/refusals", label: "Refusals" },
  { href: "/evidence", label: "Evidence" },
  { href: "/retention", label: "Retention" },
  { href: "/audit", label: "Audit log" },
  { href: "/settings", label: "Settings", managersOnly: true },
] as const;

/** `canManage`: the person may manage people and keys (Settings answers 404 to anyone else). */
export function SideNav({ children, canManage = false }: { children?: ReactNode; canManage?: boolean }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="side-nav">
      <Link href="/sessions" className="brand">
        Custodian
      </Link>
      <ul>
        {SECTIONS.filter((section) => canManage || !("managersOnly" in section)).map((section) => {
          const active = pathname === section.href || pathname.startsWith(`${section.href}/`);
          return (
            <li key={section.href}>
              <Link href={section.href} aria-current={active ? "page" : undefined}>
                {section.label}
              </Link>
            </li>
          );
        })}
      </ul>
      {children}
    </nav>
  );
}

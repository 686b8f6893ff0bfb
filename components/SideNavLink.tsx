"use client";

import Link, { useLinkStatus } from "next/link";
import { useEffect } from "react";

/**
 * A mark inside a link that shows while the page it leads to is on its way. It reports the link's
 * state up (`onPending`) so the navigation can say in words which page is loading. It has to live
 * inside the Link: useLinkStatus reads the nearest enclosing one.
 */
function PendingMark({ label, onPending }: { label: string; onPending: (label: string, pending: boolean) => void }) {
  const { pending } = useLinkStatus();
  useEffect(() => onPending(label, pending), [label, pending, onPending]);
  return <span className="nav-pending" data-pending={pending ? "true" : undefined} aria-hidden="true" />;
}

/**
 * One link of the side navigation, marked while its page loads. The pages under a project have no
 * loading.tsx (a loading boundary would send a non-member's 404 as a 200 page), so the wait shows
 * here, in the link that was followed, while the current page stays in place.
 */
export function SideNavLink({
  href,
  label,
  current,
  onPending,
}: {
  href: string;
  label: string;
  current: boolean;
  onPending: (label: string, pending: boolean) => void;
}) {
  return (
    <Link href={href} aria-current={current ? "page" : undefined}>
      {label}
      <PendingMark label={label} onPending={onPending} />
    </Link>
  );
}

import Link from "next/link";
import { formatCount } from "./format";
import type { PageWindow } from "./Pager";

/**
 * Where a page is in its whole list, above it: "Page 3 of 42 · 1,031 sessions", with links to the
 * first and the last page (the shared Pager below it steps one page at a time).
 */
export function ListSummary({
  window,
  hrefFor,
  noun,
  testId,
}: {
  window: PageWindow;
  hrefFor: (page: number) => string;
  /** The items counted: [one, many]. */
  noun: readonly [string, string];
  testId?: string;
}) {
  return (
    <div style={{ display: "flex", gap: 16, alignItems: "baseline", flexWrap: "wrap", margin: "8px 0" }}>
      <p aria-live="polite" data-testid={testId} style={{ margin: 0 }}>
        Page {formatCount(window.page)} of {formatCount(window.pages)} · {formatCount(window.total)}{" "}
        {window.total === 1 ? noun[0] : noun[1]}
      </p>
      {window.pages > 1 ? (
        <nav aria-label={`First and last pages of the ${noun[1]}`} style={{ display: "flex", gap: 12 }}>
          {window.page > 1 ? <Link href={hrefFor(1)}>First page</Link> : null}
          {window.page < window.pages ? <Link href={hrefFor(window.pages)}>Last page</Link> : null}
        </nav>
      ) : null}
    </div>
  );
}

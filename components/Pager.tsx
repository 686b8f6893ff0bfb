import Link from "next/link";
import { formatCount } from "./format";

export interface PageWindow {
  /** 1-based, within 1..pages. */
  page: number;
  pages: number;
  /** The items shown: [start, end) of total. */
  start: number;
  end: number;
  total: number;
  /** More items than `total` exist: the count stopped there (pages then has no last). */
  more?: boolean;
}

/** The page of a list of `total` items to show: the requested one, kept within the list. */
export function pageWindow(total: number, requested: number, size: number): PageWindow {
  const pages = Math.max(1, Math.ceil(total / size));
  const page = Math.min(pages, Math.max(1, Number.isFinite(requested) ? Math.trunc(requested) : 1));
  return { page, pages, start: (page - 1) * size, end: Math.min(total, page * size), total };
}

/** Previous and next links under a long list, and where in it the page is; nothing for one page. */
export function Pager({
  label,
  noun,
  window,
  hrefFor,
}: {
  label: string;
  noun: string;
  window: PageWindow;
  hrefFor: (page: number) => string;
}) {
  if (window.pages <= 1 && !window.more) return null;
  return (
    <nav aria-label={label} style={{ display: "flex", gap: 12, marginTop: 12, alignItems: "center" }}>
      {window.page > 1 ? <Link href={hrefFor(window.page - 1)}>← Previous</Link> : null}
      <span>
        {window.more ? (
          <>
            {noun} {formatCount(window.start + 1)}–{formatCount(window.end)} of more than {formatCount(window.total)} · page{" "}
            {formatCount(window.page)}
          </>
        ) : (
          <>
            {noun} {formatCount(window.start + 1)}–{formatCount(window.end)} of {formatCount(window.total)} · page{" "}
            {formatCount(window.page)} of {formatCount(window.pages)}
          </>
        )}
      </span>
      {window.page < window.pages || window.more ? <Link href={hrefFor(window.page + 1)}>Next →</Link> : null}
    </nav>
  );
}

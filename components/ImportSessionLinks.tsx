import Link from "next/link";
import { formatCount } from "./format";
import { projectHref } from "./project-href";

/** Links to the sessions an import made or added to (the first few), and how many more there are. */
export function ImportSessionLinks({
  slug,
  links,
  total,
}: {
  slug: string;
  links: Array<{ id: string; externalId: string }>;
  total: number;
}) {
  if (links.length === 0) return <>—</>;
  const more = total - links.length;
  return (
    <>
      {links.map((l, i) => (
        <span key={l.id}>
          {i > 0 ? ", " : null}
          <Link href={projectHref(slug, `/sessions/${l.id}`)} className="mono">
            {l.externalId}
          </Link>
        </span>
      ))}
      {more > 0 ? ` and ${formatCount(more)} more` : null}
    </>
  );
}

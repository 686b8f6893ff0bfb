import Link from "next/link";
import type { AppError } from "@/lib/core/errors";

/**
 * A list whose URL carries a filter, sort or page that does not fit: the page says which field and
 * why, with a link to the unfiltered list, instead of failing.
 */
export function ListQueryError({
  title,
  error,
  resetHref,
  resetLabel,
}: {
  title: string;
  error: AppError;
  resetHref: string;
  resetLabel: string;
}) {
  return (
    <>
      <h1>{title}</h1>
      <div className="panel error-text" role="alert" data-testid="list-query-error">
        <p>That filter is not valid:</p>
        <ul>
          {(error.fields ?? []).map((f) => (
            <li key={f.path}>
              <strong>{f.path}</strong>: {f.message}
            </li>
          ))}
        </ul>
        <Link href={resetHref}>{resetLabel}</Link>
      </div>
    </>
  );
}

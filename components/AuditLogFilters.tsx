import Link from "next/link";
import type { AuditQuery } from "@/lib/server/audit";
import { RangeSelect } from "./RangeSelect";
import "./audit-log.css";

/** Target types the log records, as the filter offers them. */
const TARGET_TYPES: ReadonlyArray<[string, string]> = [
  ["span", "Span"],
  ["session", "Session"],
  ["project", "Project"],
  ["api_key", "API key"],
  ["user", "Person"],
  ["saved_question", "Saved question"],
];

/**
 * The audit log's filters as a GET form, so a filtered log is a link to share: a person (as the
 * log names them), an act (in words), whole days in UTC, a target, the order; and the CSV of
 * everything that matches.
 */
export function AuditLogFilters({
  action,
  query,
  people,
  acts,
  exportHref,
}: {
  /** The audit page's path. */
  action: string;
  query: AuditQuery;
  people: readonly string[];
  acts: ReadonlyArray<{ code: string; words: string }>;
  /** The CSV export of the log as filtered now. */
  exportHref: string;
}) {
  return (
    <form method="get" action={action} className="panel audit-filters" aria-label="Filter the audit log">
      <label>
        Person
        <select name="person" defaultValue={query.person ?? ""}>
          <option value="">Anyone</option>
          {/* A person named in a shared link but absent from the list still shows as chosen. */}
          {query.person && !people.includes(query.person) ? <option value={query.person}>{query.person}</option> : null}
          {people.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </label>
      <label>
        Act
        <select name="act" defaultValue={query.act ?? ""}>
          <option value="">Any act</option>
          {query.act && !acts.some((a) => a.code === query.act) ? <option value={query.act}>{query.act}</option> : null}
          {acts.map((a) => (
            <option key={a.code} value={a.code} title={a.code}>
              {a.words}
            </option>
          ))}
        </select>
      </label>
      <RangeSelect value={query.range} stacked={false} />
      <label>
        From (UTC)
        <input type="date" name="from" defaultValue={query.from ?? ""} />
      </label>
      <label>
        To (UTC, inclusive)
        <input type="date" name="to" defaultValue={query.to ?? ""} />
      </label>
      <label>
        Target
        <select name="targetType" defaultValue={query.targetType ?? ""}>
          <option value="">Any type</option>
          {TARGET_TYPES.map(([code, words]) => (
            <option key={code} value={code}>
              {words}
            </option>
          ))}
        </select>
      </label>
      <label>
        Target id
        <input name="targetId" defaultValue={query.targetId ?? ""} placeholder="exact id" spellCheck={false} />
      </label>
      <label>
        Order
        <select name="sort" defaultValue={query.sort}>
          <option value="newest">Newest first</option>
          <option value="oldest">Oldest first</option>
        </select>
      </label>
      <div className="audit-filter-actions">
        <button type="submit" className="button">
          Filter
        </button>
        <Link href={action}>Clear</Link>
        <a href={exportHref} download>
          Download CSV
        </a>
      </div>
    </form>
  );
}

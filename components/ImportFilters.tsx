import Link from "next/link";
import type { ImportListPage } from "@/lib/server/dashboard";

const STATUS_LABEL = { RUNNING: "Running", DONE: "Done", FAILED: "Failed" } as const;

/** The imports list's filter and order as a GET form: a filtered list is a link to share. */
export function ImportFilters({ action, query }: { action: string; query: ImportListPage["query"] }) {
  return (
    <form
      method="get"
      action={action}
      className="panel"
      aria-label="Filter imports"
      style={{ display: "flex", gap: 12, alignItems: "end", flexWrap: "wrap", marginBottom: 16 }}
    >
      <label>
        Status
        <br />
        <select name="status" defaultValue={query.status ?? ""}>
          <option value="">Any</option>
          {(Object.keys(STATUS_LABEL) as Array<keyof typeof STATUS_LABEL>).map((s) => (
            <option key={s} value={s} title={s}>
              {STATUS_LABEL[s]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Order
        <br />
        <select name="sort" defaultValue={query.sort}>
          <option value="newest">Newest first</option>
          <option value="oldest">Oldest first</option>
        </select>
      </label>
      <button type="submit" className="button">
        Filter
      </button>
      {query.status || query.sort !== "newest" ? <Link href={action}>Clear</Link> : null}
    </form>
  );
}

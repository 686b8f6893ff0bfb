import Link from "next/link";
import { EVIDENTIAL_CLASSES, PROVENANCE_STATUSES } from "@/lib/evidence/types";
import type { RefusalListQuery } from "@/lib/server/dashboard";
import { FilterDisclosure } from "./FilterDisclosure";
import { activeFilterCount, REFUSAL_FILTER_DEFAULTS, REFUSAL_FILTER_GROUPS } from "./filter-count";
import { humanize, provenanceWords } from "./format";
import { RangeSelect } from "./RangeSelect";

const SHOW_LABEL = { both: "Both", refusals: "Refusals", compactions: "Compactions without asking" } as const;

/**
 * The refusals list's filters as a GET form, so a filtered list is a link to share: what to show,
 * the refusing cell, who asked, whole UTC days, and the order; behind a "Filters" disclosure, closed
 * on a phone.
 */
export function RefusalFilters({ action, query }: { action: string; query: RefusalListQuery }) {
  return (
    <FilterDisclosure active={activeFilterCount(query, REFUSAL_FILTER_GROUPS, REFUSAL_FILTER_DEFAULTS)}>
      <form
        method="get"
        action={action}
        className="panel"
        aria-label="Filter refusals"
        style={{ display: "flex", gap: 12, alignItems: "end", flexWrap: "wrap" }}
      >
        <label>
          Show
          <br />
          <select name="show" defaultValue={query.show}>
            {(Object.keys(SHOW_LABEL) as Array<keyof typeof SHOW_LABEL>).map((s) => (
              <option key={s} value={s}>
                {SHOW_LABEL[s]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Class
          <br />
          <select name="cellClass" defaultValue={query.cellClass ?? ""}>
            <option value="">Any</option>
            {EVIDENTIAL_CLASSES.map((c) => (
              <option key={c} value={c} title={c}>
                {humanize(c)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Provenance
          <br />
          <select name="cellProvenance" defaultValue={query.cellProvenance ?? ""}>
            <option value="">Any</option>
            {PROVENANCE_STATUSES.map((p) => (
              <option key={p} value={p} title={p}>
                {provenanceWords(p)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Requested by
          <br />
          <input name="requester" defaultValue={query.requester ?? ""} placeholder="exactly as recorded" spellCheck={false} />
        </label>
        <RangeSelect value={query.range} />
        <label>
          From (UTC)
          <br />
          <input type="date" name="from" defaultValue={query.from ?? ""} />
        </label>
        <label>
          To (UTC, inclusive)
          <br />
          <input type="date" name="to" defaultValue={query.to ?? ""} />
        </label>
        <label>
          Order
          <br />
          <select name="sort" defaultValue={query.sort}>
            <option value="newest">Newest first</option>
            <option value="oldest">Oldest first</option>
          </select>
        </label>
        {query.session ? <input type="hidden" name="session" value={query.session} /> : null}
        {query.days && !query.from && !query.range ? <input type="hidden" name="days" value={query.days} /> : null}
        <button type="submit" className="button">
          Filter
        </button>
        <Link href={action}>Clear</Link>
      </form>
    </FilterDisclosure>
  );
}

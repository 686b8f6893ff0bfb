/**
 * How many of a list's filters narrow it, for the "Filters" disclosure: each group of query fields
 * counts once when any of its fields is set to something other than its default (a range is one
 * filter, whether a preset or its days). The order of a list is not a filter.
 */
export function activeFilterCount(
  query: Readonly<Record<string, unknown>>,
  groups: ReadonlyArray<readonly string[]>,
  defaults: Readonly<Record<string, unknown>> = {},
): number {
  const set = (key: string) => {
    const value = query[key];
    return value !== undefined && value !== null && value !== "" && value !== defaults[key];
  };
  return groups.filter((group) => group.some(set)).length;
}

/** "Filters", "Filters (1 active)", "Filters (3 active)". */
export function filterSummary(active: number): string {
  return active === 0 ? "Filters" : `Filters (${active} active)`;
}

/** The refusals list's filters: what it shows, the cell, who asked, the days, one session. */
export const REFUSAL_FILTER_GROUPS = [
  ["show"],
  ["cellClass"],
  ["cellProvenance"],
  ["requester"],
  ["range", "from", "to", "days"],
  ["session"],
] as const;
export const REFUSAL_FILTER_DEFAULTS = { show: "both" } as const;

/** The sessions list's filters: words, runtime, state, the days. */
export const SESSION_FILTER_GROUPS = [["q"], ["runtime"], ["state"], ["range", "from", "to"]] as const;
export const SESSION_FILTER_DEFAULTS = { state: "any" } as const;

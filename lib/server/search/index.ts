export { byteOffsetAt } from "./byte-offsets";
export { parseSearchParams, SEARCH_PAGE_DEFAULT, SEARCH_PAGE_MAX, type SearchInput, SearchInputSchema } from "./input";
export type { SearchHit, SearchHitOriginal } from "./hits";
export { parseSearchQuery, type SearchTerm } from "./query";
export { RANK_CAP, REGEX_SCAN_MAX, type SearchPage, searchSpans } from "./search";
export { indexAllPending, pendingSearchCount } from "./indexer";
export { RELATIONS as SEARCH_SOURCES } from "./sources";

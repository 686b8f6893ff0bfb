/**
 * The page views the pages benchmark times: every paged list of a project (sessions, the longest
 * session's spans, refusals, imports, API keys, the audit log) at its first, a middle and its last
 * page, and each with the filters people use, every one against the lists' 300 ms p95 target.
 * Pure: what to visit follows from the project's counts and a few of its values.
 */
import { encodeRefusalCursor, PAGE_SIZE } from "@/lib/server/dashboard";

const LAST_UUID = "ffffffff-ffff-ffff-ffff-ffffffffffff";
import { AUDIT_PAGE_SIZE } from "@/lib/server/audit";

/** Lists' p95 target, ms. */
export const LIST_TARGET = 300;
/** Spans on a page of a session's transcript. */
export const SPAN_PAGE = 200;
const IMPORT_PAGE = 25;
const KEY_PAGE = 25;

export interface PageVisit {
  label: string;
  /** Below the project's base path. */
  path: string;
  /** Text the page must show, so an error page is not timed as the list. */
  mustContain: string;
  target: number;
}

export interface ListFacts {
  sessions: number;
  big: { id: string; spans: number };
  refusals: number;
  compactions: number;
  imports: number;
  failedImports: number;
  keys: { all: number; active: number; revoked: number };
  audit: { all: number; person: string; personEvents: number; act: string; actEvents: number };
  /** The most frequent requester of refusals, and a day range a week wide ending `today` (YYYY-MM-DD). */
  requester: string;
  week: { from: string; to: string };
}

const lastOf = (total: number, size: number) => Math.max(1, Math.ceil(total / size));
const middleOf = (total: number, size: number) => Math.ceil(lastOf(total, size) / 2);

/** First, middle and last page of a list whose URL takes `page` (or `param`) beside `query`. */
function threePages(name: string, path: string, total: number, size: number, mustContain: string, param = "page", query = "") {
  const at = (page: number) => `${path}?${query}${query ? "&" : ""}${param}=${page}`;
  const first = `${path}${query ? `?${query}` : ""}`;
  const last = lastOf(total, size);
  return [
    { label: `${name}, page 1`, path: first, mustContain },
    { label: `${name}, page ${middleOf(total, size)} (middle)`, path: at(middleOf(total, size)), mustContain },
    { label: `${name}, page ${last} (last)`, path: at(last), mustContain },
  ];
}

export function listPageVisits(f: ListFacts): PageVisit[] {
  const big = `/sessions/${f.big.id}`;
  const visits: Array<Omit<PageVisit, "target">> = [
    ...threePages("sessions", "/sessions", f.sessions, PAGE_SIZE, "Sessions"),
    { label: "sessions by spans at risk", path: "/sessions?sort=at-risk", mustContain: "Sessions" },
    { label: "sessions compacted without asking", path: "/sessions?state=unasked", mustContain: "Sessions" },
    { label: "sessions with spans at risk, by refusals", path: "/sessions?state=at-risk&sort=refusals", mustContain: "Sessions" },
    ...threePages("100k-span session: spans", big, f.big.spans, SPAN_PAGE, "Evidence grid"),
    { label: "  ... last seq first, page 1", path: `${big}?sort=seq-desc`, mustContain: "Evidence grid" },
    { label: "  ... tool calls (counted), page 100", path: `${big}?kind=TOOL_CALL&page=100`, mustContain: "Evidence grid" },
    {
      label: "  ... one grid cell (STRUCTURED x DURABLE)",
      path: `${big}?class=STRUCTURED&provenance=DURABLE`,
      mustContain: "Evidence grid",
    },
    // Paged by a cursor: the first page, and the page after a key at the start of the week's days.
    { label: "refusals, page 1", path: "/refusals", mustContain: "Refusal events" },
    {
      label: "refusals, a page after a cursor",
      path: `/refusals?after=${encodeRefusalCursor({ at: `${f.week.from}T00:00:00.000Z`, sessionId: LAST_UUID, id: LAST_UUID })}`,
      mustContain: "Refusal events",
    },
    { label: "refusals only, oldest first", path: "/refusals?show=refusals&sort=oldest", mustContain: "Refusal events" },
    { label: "compactions without asking only", path: "/refusals?show=compactions", mustContain: "Refusal events" },
    {
      label: "refusals, one cell, oldest first",
      path: "/refusals?cellClass=SIDE_EFFECTING&sort=oldest",
      mustContain: "Refusal events",
    },
    {
      label: "refusals, one cell and provenance",
      path: "/refusals?cellClass=STRUCTURED&cellProvenance=EXPIRING",
      mustContain: "Refusal events",
    },
    {
      label: "refusals by requester",
      path: `/refusals?requester=${encodeURIComponent(f.requester)}`,
      mustContain: "Refusal events",
    },
    { label: "refusals of the 100k-span session", path: `/refusals?session=${f.big.id}`, mustContain: "Refusal events" },
    { label: "refusals, a week's days", path: `/refusals?from=${f.week.from}&to=${f.week.to}`, mustContain: "Refusal events" },
    { label: "refusals, the last 7 days", path: "/refusals?days=7", mustContain: "Refusal events" },
    ...threePages("imports", "/imports", f.imports, IMPORT_PAGE, "Imports"),
    {
      label: "imports, failed only, last page",
      path: `/imports?status=FAILED&page=${lastOf(f.failedImports, IMPORT_PAGE)}`,
      mustContain: "Imports",
    },
    ...threePages("settings: API keys", "/settings", f.keys.all, KEY_PAGE, "API keys of", "keysPage"),
    { label: "settings: active keys, newest first", path: "/settings?keys=active&keysSort=newest", mustContain: "API keys of" },
    {
      label: "settings: revoked keys, last page",
      path: `/settings?keys=revoked&keysPage=${lastOf(f.keys.revoked, KEY_PAGE)}`,
      mustContain: "API keys of",
    },
    ...threePages("audit log", "/audit", f.audit.all, AUDIT_PAGE_SIZE, "Audit log"),
    { label: "audit log, oldest first", path: "/audit?sort=oldest", mustContain: "Audit log" },
    ...threePages(
      "audit log by person",
      "/audit",
      f.audit.personEvents,
      AUDIT_PAGE_SIZE,
      "Audit log",
      "page",
      `person=${encodeURIComponent(f.audit.person)}`,
    ),
    ...threePages("audit log by act", "/audit", f.audit.actEvents, AUDIT_PAGE_SIZE, "Audit log", "page", `act=${f.audit.act}`),
    { label: "audit log, a week's days", path: `/audit?from=${f.week.from}&to=${f.week.to}`, mustContain: "Audit log" },
    {
      label: "audit log by person, act and days",
      path: `/audit?person=${encodeURIComponent(f.audit.person)}&act=${f.audit.act}&from=${f.week.from}&to=${f.week.to}`,
      mustContain: "Audit log",
    },
  ];
  return visits.map((v) => ({ ...v, target: LIST_TARGET }));
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the statements behind the paged lists, as the pages benchmark
 * prints them: each list's total and its first, middle and last page as read, and the filters
 * people use. printExplain flags a sequential scan of span, refusal_event, import_job or audit_log.
 */
import type pg from "pg";
import { db } from "@/lib/db/client";
import type { RetentionPolicy } from "@/lib/evidence/types";
import { listAuditPage } from "@/lib/server/audit";
import {
  encodeRefusalCursor,
  importCountSql,
  importPageSql,
  listKeyPage,
  PAGE_SIZE,
  pageBySeq,
  parseImportListQuery,
  parseRefusalListQuery,
  refusalPageRead,
  refusalPageSql,
  sessionListSql,
} from "@/lib/server/dashboard";
import { projectOverviewStatements } from "@/lib/server/overview";
import { gridQueries, sessionGrid, timelineQuery } from "@/lib/server/provenance";
import type { ListFacts } from "./measure-list-pages";
import { SPAN_PAGE } from "./measure-list-pages";
import { printExplain } from "./measure";

/** The last uuid in order: a cursor at a time with it starts the page at that time's first row. */
const LAST_UUID = "ffffffff-ffff-ffff-ffff-ffffffffffff";

export async function explainLists(
  client: pg.ClientBase,
  projectId: string,
  facts: ListFacts,
  policy: RetentionPolicy,
  now: Date,
): Promise<void> {
  const big = facts.big;
  const params = { now, horizonDays: policy.evidenceHorizonDays };
  const q = gridQueries(big.id, params);
  await printExplain(client, "grid counters, 100k-span session", q.counts);
  await printExplain(client, "grid: its spans past their TTL, original still held", q.expired);
  await printExplain(client, "grid: its summaries", q.summaries);
  await printExplain(client, "grid: summaries with a pointerless link", q.unpointed);
  const grid = await sessionGrid(db(), big.id, policy, now);
  const spans = (filter: Parameters<typeof timelineQuery>[4], offset: number, descending = false) =>
    timelineQuery(big.id, policy, now, grid, filter, { offset, limit: SPAN_PAGE, descending });
  await printExplain(client, "spans, first page", spans({}, 0));
  await printExplain(client, "spans, last page (read from the other end)", spans({}, 0, true));
  const middleOffset = Math.floor(big.spans / 2 / SPAN_PAGE) * SPAN_PAGE;
  const bigSession = await db().session.findUniqueOrThrow({ where: { id: big.id } });
  const bySeq = pageBySeq(bigSession, {}, { offset: middleOffset, limit: SPAN_PAGE, descending: false });
  await printExplain(
    client,
    "spans, middle page (as read: by seq when the seqs have no gap)",
    timelineQuery(big.id, policy, now, grid, bySeq.filter, bySeq.read),
  );
  await printExplain(client, "spans, middle page by offset (a session with seq gaps)", spans({}, middleOffset));
  await printExplain(client, "spans, tool calls, page 100", spans({ kind: "TOOL_CALL" }, 99 * SPAN_PAGE));
  await printExplain(client, "spans, STRUCTURED x DURABLE cell", spans({ class: "STRUCTURED", provenance: "DURABLE" }, 0));

  const lastSessions = Math.max(1, Math.ceil(facts.sessions / PAGE_SIZE));
  await printExplain(
    client,
    "sessions page",
    sessionListSql(projectId, { state: "any", sort: "activity", page: 1 }, now, policy.evidenceHorizonDays),
  );
  await printExplain(
    client,
    "sessions, last page",
    sessionListSql(projectId, { state: "any", sort: "activity", page: lastSessions }, now, policy.evidenceHorizonDays),
  );
  await printExplain(
    client,
    "sessions by spans at risk",
    sessionListSql(projectId, { state: "any", sort: "at-risk", page: 1 }, now, policy.evidenceHorizonDays),
  );
  await printExplain(
    client,
    "sessions compacted without asking",
    sessionListSql(projectId, { state: "unasked", sort: "activity", page: 1 }, now, policy.evidenceHorizonDays),
  );
  for (const [name, sql] of Object.entries(projectOverviewStatements(projectId, "90d", now)))
    await printExplain(client, `overview, 90 days: ${name}`, sql);

  const refusalPlans: Array<[string, Record<string, string>]> = [
    ["refusals", {}],
    ["refusals, one cell and requester", { cellClass: "SIDE_EFFECTING", requester: facts.requester }],
    ["refusals of the 100k-span session", { session: big.id }],
    ["refusals, a week's days", { from: facts.week.from, to: facts.week.to }],
    // A page deep in the list: after a key at the start of the week's days.
    [
      "refusals: a page after a cursor",
      { after: encodeRefusalCursor({ at: `${facts.week.from}T00:00:00.000Z`, sessionId: LAST_UUID, id: LAST_UUID }) },
    ],
  ];
  for (const [label, raw] of refusalPlans) {
    const query = parseRefusalListQuery(raw);
    await printExplain(client, `${label}: page and totals`, refusalPageSql(projectId, query, now, refusalPageRead(query)));
  }

  const imports = parseImportListQuery({});
  await printExplain(client, "imports: total", importCountSql(projectId, imports));
  await printExplain(client, "imports: page 1", importPageSql(projectId, imports, { offset: 0, limit: 25, descending: true }));
  const failed = parseImportListQuery({ status: "FAILED" });
  await printExplain(
    client,
    "imports: failed, middle page",
    importPageSql(projectId, failed, { offset: Math.floor(facts.failedImports / 50) * 25, limit: 25, descending: true }),
  );

  const lastKeys = String(Math.max(1, Math.ceil(facts.keys.all / 25)));
  for (const [label, raw] of [
    ["API keys", {}],
    ["API keys, last page", { keysPage: lastKeys }],
    ["API keys, active, newest first", { keys: "active", keysSort: "newest" }],
  ] as const) {
    const sql = listKeyPage.statements(projectId, raw);
    await printExplain(client, `${label}: total`, sql.total);
    await printExplain(client, `${label}: page`, sql.page);
  }

  const auditLast = (n: number) => String(Math.max(1, Math.ceil(n / 50)));
  const auditPlans: Array<[string, Record<string, string>, number]> = [
    ["audit log", {}, facts.audit.all],
    ["audit log, middle page", { page: String(Math.ceil(Number(auditLast(facts.audit.all)) / 2)) }, facts.audit.all],
    ["audit log, last page", { page: auditLast(facts.audit.all) }, facts.audit.all],
    ["audit log by person", { person: facts.audit.person }, facts.audit.personEvents],
    [
      "audit log by person, last page",
      { person: facts.audit.person, page: auditLast(facts.audit.personEvents) },
      facts.audit.personEvents,
    ],
    ["audit log by act", { act: facts.audit.act }, facts.audit.actEvents],
    ["audit log, a week's days", { from: facts.week.from, to: facts.week.to }, facts.audit.all],
    [
      "audit log by person, act and days",
      { person: facts.audit.person, act: facts.audit.act, from: facts.week.from, to: facts.week.to },
      facts.audit.all,
    ],
  ];
  for (const [label, raw, total] of auditPlans) {
    const sql = listAuditPage.statements(projectId, raw, total);
    await printExplain(client, `${label}: total`, sql.total);
    await printExplain(client, `${label}: page as read`, sql.page);
  }
  const lists = listAuditPage.statements(projectId, {}, facts.audit.all);
  await printExplain(client, "audit log: its people (index skip scan)", lists.people);
  await printExplain(client, "audit log: its acts (index skip scan)", lists.acts);
}

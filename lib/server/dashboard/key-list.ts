/**
 * A project's API keys for its settings page, paged on the server with the exact total: all,
 * active or revoked, oldest or newest first (a project holds tens of keys, hundreds at most; the
 * project index finds them).
 */
import { z } from "zod";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { pageParam, pageWithin, parseListQuery, type RawSearchParams } from "./list-query";

export const KEY_PAGE_SIZE = 25;
export const KEY_STATUSES = ["all", "active", "revoked"] as const;
export const KEY_SORTS = ["oldest", "newest"] as const;

/** Its params are prefixed (`keys`, `keysPage`...), as the settings page has other sections. */
export const KeyListQuerySchema = z.object({
  keysPage: pageParam,
  keys: z.enum(KEY_STATUSES).default("all"),
  keysSort: z.enum(KEY_SORTS).default("oldest"),
});
export type KeyListQuery = z.output<typeof KeyListQuerySchema>;
export const KEY_LIST_DEFAULTS = { keysPage: 1, keys: "all", keysSort: "oldest" } as const;

export function parseKeyListQuery(raw: RawSearchParams | URLSearchParams): KeyListQuery {
  return parseListQuery(KeyListQuerySchema, raw, "The API key filter");
}

export interface KeyListRow {
  id: string;
  name: string;
  prefix: string;
  role: "VIEWER" | "OPERATOR" | "ADMIN";
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

function whereSql(projectId: string, query: KeyListQuery): Prisma.Sql {
  const c = [Prisma.sql`k.project_id = ${projectId}::uuid`];
  if (query.keys === "active") c.push(Prisma.sql`k.revoked_at is null`);
  if (query.keys === "revoked") c.push(Prisma.sql`k.revoked_at is not null`);
  return Prisma.join(c, " and ");
}

/** How many keys match: counted over the project index. */
export function keyCountSql(projectId: string, query: KeyListQuery): Prisma.Sql {
  return Prisma.sql`select count(*)::int as total from api_key k where ${whereSql(projectId, query)}`;
}

/** One page of keys in the order asked; `page` is already kept within the list. */
export function keyPageSql(projectId: string, query: KeyListQuery, page: number): Prisma.Sql {
  const dir = Prisma.raw(query.keysSort === "newest" ? "desc" : "asc");
  return Prisma.sql`
    select k.id::text as id, k.name, k.prefix, k.role::text as role, k.created_at, k.last_used_at, k.revoked_at
      from api_key k where ${whereSql(projectId, query)}
     order by k.created_at ${dir}, k.id ${dir}
     limit ${KEY_PAGE_SIZE} offset ${(page - 1) * KEY_PAGE_SIZE}`;
}

export async function listKeyPage(projectId: string, raw: KeyListQuery | RawSearchParams | URLSearchParams) {
  const query = isParsed(raw) ? raw : parseKeyListQuery(raw);
  const [{ total } = { total: 0 }] = await db().$queryRaw<Array<{ total: number }>>(keyCountSql(projectId, query));
  const { page, pages } = pageWithin(query.keysPage, total, KEY_PAGE_SIZE);
  const rows = await db().$queryRaw<
    Array<{
      id: string;
      name: string;
      prefix: string;
      role: KeyListRow["role"];
      created_at: Date;
      last_used_at: Date | null;
      revoked_at: Date | null;
    }>
  >(keyPageSql(projectId, query, page));
  return {
    rows: rows.map(
      (r): KeyListRow => ({
        id: r.id,
        name: r.name,
        prefix: r.prefix,
        role: r.role,
        createdAt: r.created_at,
        lastUsedAt: r.last_used_at,
        revokedAt: r.revoked_at,
      }),
    ),
    total,
    page,
    pages,
    pageSize: KEY_PAGE_SIZE,
    query: { ...query, keysPage: page },
  };
}

function isParsed(raw: KeyListQuery | RawSearchParams | URLSearchParams): raw is KeyListQuery {
  return !(raw instanceof URLSearchParams) && typeof raw.keysPage === "number";
}

/** The statements a page of keys runs, for the pages benchmark to EXPLAIN (the feature's index exports this function only). */
listKeyPage.statements = (projectId: string, raw: RawSearchParams) => {
  const query = parseKeyListQuery(raw);
  return { total: keyCountSql(projectId, query), page: keyPageSql(projectId, query, query.keysPage) };
};

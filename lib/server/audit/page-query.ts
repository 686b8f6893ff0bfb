import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { dayParam, rangeParam, timeWindow } from "@/lib/core/time-range";
import { zodFields } from "@/lib/core/validation";
import { Prisma } from "@/lib/db/generated/client";

/** Events on one page of a project's audit log. */
export const AUDIT_PAGE_SIZE = 50;

export const AUDIT_SORTS = ["newest", "oldest"] as const;

/** Free text matched exactly; Postgres text cannot hold NUL, so it is refused here rather than there. */
const exactText = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[^\u0000]*$/, "Must not contain NUL");

/**
 * The audit log's filters as they travel in the URL (a GET form, shareable links): person is an
 * actor's label exactly as recorded, act an act code, from/to whole days in UTC (both inclusive),
 * the target a type with an id.
 */
export const AuditQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    sort: z.enum(AUDIT_SORTS).default("newest"),
    person: exactText(320).optional(),
    act: z
      .string()
      .max(64)
      .regex(/^[a-z][a-z_.]*$/, "Expected an act code such as original.pin")
      .optional(),
    /** The project views' time range (lib/core/time-range); from/to win over it. */
    range: rangeParam.optional(),
    from: dayParam.optional(),
    to: dayParam.optional(),
    targetType: z
      .string()
      .max(32)
      .regex(/^[a-z][a-z_]*$/, "Expected a target type such as span")
      .optional(),
    targetId: exactText(200).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.from > q.to)
      ctx.addIssue({ code: "custom", path: ["to"], message: "The range ends before it starts" });
    if (q.targetId && !q.targetType)
      ctx.addIssue({ code: "custom", path: ["targetType"], message: "A target id needs its type" });
  });

export type AuditQuery = z.output<typeof AuditQuerySchema>;

/** What a page or route hands over: Next's search params (repeated keys arrive as arrays). */
export type RawSearchParams = Record<string, string | string[] | undefined>;

/**
 * Parses the URL's search params. Empty values (a GET form's untouched fields) mean "no filter";
 * anything else that does not fit is a VALIDATION_FAILED naming the field.
 */
export function parseAuditQuery(raw: RawSearchParams | URLSearchParams): AuditQuery {
  const entries = raw instanceof URLSearchParams ? [...raw.entries()] : Object.entries(raw);
  const values: Record<string, string> = {};
  for (const [key, value] of entries) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined && first !== "" && !(key in values)) values[key] = first;
  }
  const result = AuditQuerySchema.safeParse(values);
  if (result.success) return result.data;
  // One message per field (a date that is no date fails its range check too).
  const fields = zodFields(result.error).filter((f, i, all) => all.findIndex((g) => g.path === f.path) === i);
  throw new AppError("VALIDATION_FAILED", `The audit log filter is not valid: ${fields.map((f) => f.path).join(", ")}`, {
    fields,
  });
}

/** The query's filters as search params (page and defaults left out): links and the CSV export keep them. */
export function auditQueryParams(query: AuditQuery, page?: number): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ["person", "act", "range", "from", "to", "targetType", "targetId"] as const) {
    const value = query[key];
    if (value) params.set(key, value);
  }
  if (query.sort !== "newest") params.set("sort", query.sort);
  if (page !== undefined && page > 1) params.set("page", String(page));
  return params;
}

/**
 * The WHERE clause: always the project (instance-level rows, with no project, never show in a
 * project's log), then each filter as an equality or range on an indexed column.
 */
export function auditWhereSql(projectId: string, query: AuditQuery, now = new Date()): Prisma.Sql {
  const conditions: Prisma.Sql[] = [Prisma.sql`a.project_id = ${projectId}::uuid`];
  if (query.act) conditions.push(Prisma.sql`a.act = ${query.act}`);
  if (query.person) conditions.push(Prisma.sql`a.actor_label = ${query.person}`);
  const { since, until } = timeWindow(query, now);
  if (since) conditions.push(Prisma.sql`a."at" >= ${since}`);
  if (until) conditions.push(Prisma.sql`a."at" < ${until}`);
  if (query.targetType) conditions.push(Prisma.sql`a.target_type = ${query.targetType}`);
  if (query.targetId) conditions.push(Prisma.sql`a.target_id = ${query.targetId}`);
  return Prisma.join(conditions, " and ");
}

/** Newest first by default; id breaks ties between events of the same instant, so pages never overlap. */
export function auditOrderSql(sort: AuditQuery["sort"]): Prisma.Sql {
  return sort === "oldest" ? Prisma.sql`a."at" asc, a.id asc` : Prisma.sql`a."at" desc, a.id desc`;
}

import { actInWords, actorTypeInWords } from "./acts";
import type { AuditRow } from "./page";

/** One entry of a summarised list (the spans of a bulk pin): its text and, for a span or session, its page. */
export interface ListItem {
  text: string;
  href?: string;
}

/** A value as the log shows it: words, and for a list the whole list behind its summary ("12 spans"). */
export interface ChangeValue {
  text: string;
  items?: ListItem[];
}

/** One field an act changed; before or after is null where the event has no such field on that side. */
export interface AuditChange {
  field: string;
  before: ChangeValue | null;
  after: ChangeValue | null;
}

export interface AuditEventView {
  id: string;
  when: Date;
  who: { label: string; type: string; typeInWords: string };
  act: { code: string; words: string };
  target: { type: string; id: string; label: string; href: string | null };
  changes: AuditChange[];
  reason: string | null;
}

/** The audit log's event as people read it: who, what in words, on which target (linked), before -> after by field. */
export function presentAuditEvent(row: AuditRow, projectSlug: string): AuditEventView {
  const base = `/projects/${encodeURIComponent(projectSlug)}`;
  return {
    id: row.id,
    when: row.at,
    who: { label: row.actorLabel, type: row.actorType, typeInWords: actorTypeInWords(row.actorType) },
    act: { code: row.act, words: actInWords(row.act) },
    target: presentTarget(row, base),
    changes: presentChanges(row, base),
    reason: row.reason,
  };
}

function presentTarget(row: AuditRow, base: string): AuditEventView["target"] {
  const { targetType: type, targetId: id, act } = row;
  const after = asObject(row.after);
  const before = asObject(row.before);
  const short = id.slice(0, 8);
  const at = (path: string) => `${base}/${path}`;
  if (type === "span") return { type, id, label: `span ${short}`, href: at(`spans/${encodeURIComponent(id)}`) };
  if (type === "session") return { type, id, label: `session ${short}`, href: at(`sessions/${encodeURIComponent(id)}`) };
  if (type === "api_key") {
    const prefix = typeof after.prefix === "string" ? after.prefix : short;
    return { type, id, label: `API key ${prefix}`, href: at("settings") };
  }
  if (type === "user") {
    const email = after.email ?? before.email;
    const label = typeof email === "string" ? email : `person ${short}`;
    return { type, id, label, href: at("settings") };
  }
  if (type === "project" && act.startsWith("policy.")) {
    const version = typeof after.version === "number" ? ` version ${after.version}` : "";
    return { type, id, label: `retention policy${version}`, href: at("retention/history") };
  }
  if (type === "project" && act === "evidence.export") return { type, id, label: "evidence answer", href: at("evidence") };
  if (type === "project" && typeof after.slug === "string") return { type, id, label: `project ${after.slug}`, href: base };
  if (type === "project") return { type, id, label: "this project", href: base };
  if (type === "saved_question") {
    const title = after.title ?? before.title;
    return { type, id, label: typeof title === "string" ? `question “${title}”` : `question ${short}`, href: at("evidence") };
  }
  return { type, id, label: `${type.replace(/_/g, " ")} ${short}`, href: null };
}

/**
 * before and after, flattened to dotted fields (nested objects) and compared: a field the act left
 * as it was is not listed. A policy event's own `changes` list restates the diff and is left out.
 */
function presentChanges(row: AuditRow, base: string): AuditChange[] {
  const skip = row.act.startsWith("policy.") ? new Set(["changes"]) : new Set<string>();
  const before = flatten(row.before, skip);
  const after = flatten(row.after, skip);
  const fields = [...new Set([...before.keys(), ...after.keys()])];
  const changes: AuditChange[] = [];
  for (const field of fields) {
    const b = before.has(field) ? presentValue(before.get(field), field, base) : null;
    const a = after.has(field) ? presentValue(after.get(field), field, base) : null;
    if (b && a && sameValue(b, a)) continue;
    changes.push({ field, before: b, after: a });
  }
  return changes;
}

function flatten(value: unknown, skip: Set<string>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const walk = (v: unknown, path: string) => {
    if (isPlainObject(v) && Object.keys(v).length > 0) {
      for (const [key, inner] of Object.entries(v)) {
        if (path === "" && skip.has(key)) continue;
        walk(inner, path ? `${path}.${key}` : key);
      }
    } else if (path !== "") out.set(path, v);
  };
  if (value !== null && value !== undefined) {
    if (isPlainObject(value)) walk(value, "");
    else out.set("value", value);
  }
  return out;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a list under this field holds, as a noun: "spans" for a bulk pin's or a sweep's ids. */
function nounFor(field: string): [string, string] {
  const key = field.slice(field.lastIndexOf(".") + 1);
  if (/span/i.test(key) || key === "movedToLost") return ["span", "spans"];
  if (/session/i.test(key)) return ["session", "sessions"];
  if (/question/i.test(key)) return ["question", "questions"];
  if (key === "anyOf") return ["predicate", "predicates"];
  if (/prefix/i.test(key)) return ["prefix", "prefixes"];
  return ["item", "items"];
}

function presentValue(value: unknown, field: string, base: string): ChangeValue {
  if (value === null || value === undefined) return { text: "none" };
  if (typeof value === "boolean") return { text: value ? "yes" : "no" };
  if (typeof value === "number") return { text: value.toLocaleString("en") };
  if (typeof value === "string") return { text: ISO_TIME.test(value) ? formatInstant(value) : value };
  if (Array.isArray(value)) return presentList(value, field, base);
  if (isPlainObject(value)) return { text: "none" }; // only an empty object is left after flattening
  return { text: String(value) };
}

function presentList(list: unknown[], field: string, base: string): ChangeValue {
  const [one, many] = nounFor(field);
  if (list.length === 0) return { text: `no ${many}` };
  const linkTo = one === "span" ? "spans" : one === "session" ? "sessions" : null;
  const items = list.map((entry) => listItem(entry, linkTo, base));
  const ids = items.every((item) => ID.test(item.text.split(" ")[0] ?? ""));
  const joined = items.map((i) => i.text).join(", ");
  if (!ids && joined.length <= 80) return { text: joined, items };
  return { text: `${list.length.toLocaleString("en")} ${list.length === 1 ? one : many}`, items };
}

function listItem(entry: unknown, linkTo: string | null, base: string): ListItem {
  const link = (id: string) => (linkTo && ID.test(id) ? { href: `${base}/${linkTo}/${encodeURIComponent(id)}` } : {});
  if (typeof entry === "string") return { text: entry, ...link(entry) };
  if (isPlainObject(entry)) {
    if (typeof entry.spanId === "string") {
      const expiry = typeof entry.expiresAt === "string" ? ` (expiry was ${formatInstant(entry.expiresAt)})` : "";
      return { text: `${entry.spanId}${expiry}`, ...(ID.test(entry.spanId) ? { href: `${base}/spans/${entry.spanId}` } : {}) };
    }
    if (typeof entry.title === "string") return { text: entry.title };
    if (typeof entry.id === "string") return { text: entry.id, ...link(entry.id) };
  }
  return { text: typeof entry === "object" ? JSON.stringify(entry) : String(entry) };
}

function sameValue(a: ChangeValue, b: ChangeValue): boolean {
  return a.text === b.text && JSON.stringify(a.items ?? null) === JSON.stringify(b.items ?? null);
}

/** "2026-12-02 11:20 UTC", the dashboard's one way of showing a time. */
function formatInstant(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asObject(value: unknown): Record<string, unknown> {
  return isPlainObject(value) ? value : {};
}

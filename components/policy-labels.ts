/**
 * Policy fields and evidential classes as people read them, for the what-if, its confirmation and
 * the policy history: "Side-effecting TTL (days)", not "ttlDays.SIDE_EFFECTING". Pure and tested.
 */
import { humanize } from "./format";

const FIELD_LABELS: Record<string, string> = {
  evidenceHorizonDays: "Evidence horizon (days)",
  evidenceWorkloads: "Evidence-demanding workloads",
  systemConfigPrefixes: "System config paths",
};

/** "Side-effecting": a class as a heading or legend names it. */
export function classLabel(cls: string): string {
  const words = humanize(cls);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A changed field of a policy diff as people read it; an unknown field as it is. */
export function policyFieldLabel(field: string): string {
  const ttl = /^ttlDays\.([A-Z_]+)$/.exec(field);
  if (ttl) return `${classLabel(ttl[1]!)} TTL (days)`;
  return FIELD_LABELS[field] ?? field;
}

/** Words of a field's own spelling: "SHA-256" for sha256, others lower case ("movedToLost": "moved to lost"). */
function fieldWords(part: string): string {
  return part
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/_/g, " ")
    .toLowerCase()
    .replace(/\bsha ?256\b/g, "SHA-256")
    .replace(/\bttl\b/g, "TTL")
    .replace(/\burl\b/g, "URL");
}

/**
 * A changed field of an audit event as people read it: a policy field as the policy forms name it,
 * anything else in words ("exportSha256": "Export SHA-256", "question.anyOf": "Question: any of").
 * The field itself stays on hover, for whoever compares with an export.
 */
export function changeFieldLabel(field: string): string {
  const policy = policyFieldLabel(field);
  if (policy !== field) return policy;
  const words = field.split(".").map(fieldWords).join(": ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A field's value before or after: on and off for the workloads switch, the number otherwise. */
export function policyValueLabel(field: string, value: unknown): string {
  if (field === "evidenceWorkloads") return value ? "on" : "off";
  if (Array.isArray(value)) return `${value.length} paths`;
  return String(value);
}

/** How many different sessions a list of per-session, per-day rows names. */
export function distinctSessions(rows: ReadonlyArray<{ sessionId: string }>): number {
  return new Set(rows.map((r) => r.sessionId)).size;
}

/**
 * The note a saved policy's confirmation adds: the validation's warnings about the fields this save
 * changed only (a TTL, or the horizon it is measured against; the workloads switch), each named in
 * words. A warning about a TTL the save left alone was there before and is not news; "" when none.
 */
export function saveNote(
  warnings: ReadonlyArray<{ field: string; message: string }>,
  changes: ReadonlyArray<{ field: string }>,
): string {
  const changed = new Set(changes.map((c) => c.field));
  const touched = (field: string) => changed.has(field) || (field.startsWith("ttlDays.") && changed.has("evidenceHorizonDays"));
  const notes = warnings.filter((w) => touched(w.field)).map((w) => `${policyFieldLabel(w.field)}: ${w.message}`);
  return notes.length === 0 ? "" : ` Note: ${notes.join("; ")}.`;
}

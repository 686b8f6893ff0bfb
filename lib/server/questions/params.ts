import { rangeParam, timeWindow } from "@/lib/core/time-range";
import { AppError } from "@/lib/core/errors";
import { TOOL_OUTCOMES, type ToolOutcome } from "@/lib/evidence/outcomes";
import { ATOM_KINDS, SIDE_EFFECT_KINDS, type AtomKind, type SideEffectKind } from "@/lib/evidence/types";
import type { EvidencePredicate } from "@/lib/evidence/questions";
import type { EvidenceQueryInput } from "./ask";

/** The page's scope (one session, a range of whole UTC days) as an evidence question's scope. */
export function scopeFromParams(params: URLSearchParams): EvidenceQueryInput["scope"] & object {
  const date = (name: string) => {
    const value = params.get(name);
    if (!value) return undefined;
    const parsed = new Date(`${value}T00:00:00Z`);
    // A real calendar day, as the API's ISO dates are: Date rolls 2026-02-30 over to March, and
    // takes year 0, which the API refuses.
    const real =
      /^\d{4}-\d{2}-\d{2}$/.test(value) &&
      value >= "0001-01-01" &&
      !Number.isNaN(parsed.getTime()) &&
      parsed.toISOString().slice(0, 10) === value;
    if (!real)
      throw new AppError("VALIDATION_FAILED", `Invalid date in ${name}`, { fields: [{ path: name, message: "use YYYY-MM-DD" }] });
    return parsed;
  };
  const session = params.get("session");
  const until = date("to");
  // The project views' time range (?range=7d) starts the scope when no From day is given.
  const range = params.get("range");
  const preset = range ? rangeParam.safeParse(range) : null;
  if (preset && !preset.success)
    throw new AppError("VALIDATION_FAILED", "Invalid range", {
      fields: [{ path: "range", message: preset.error.issues[0]!.message }],
    });
  const from = date("from") ?? (preset?.success ? timeWindow({ range: preset.data }, new Date()).since : undefined);
  return {
    ...(session ? { sessionIds: [session] } : {}),
    ...(from ? { from } : {}),
    // The "to" day is inclusive on the page: the scope's end is exclusive, so end at the next midnight.
    ...(until ? { to: new Date(until.getTime() + 86_400_000) } : {}),
  };
}

/**
 * The Evidence page's URL (and its export links) as a question: `q=<canned id>`, or `q=custom`
 * with builder fields (effects, kinds, prefixes, tools, command pattern, negated, call outcomes), plus a scope of
 * one session and a date range. The same parsing serves the page and the download. A saved
 * question (`q=saved:<id>`) needs the database: see `evidenceQueryFromUrl`.
 */
export function evidenceQueryFromParams(projectId: string, params: URLSearchParams): EvidenceQueryInput | null {
  const q = params.get("q");
  if (!q) return null;
  const list = (name: string) =>
    params
      .getAll(name)
      .flatMap((v) => v.split(/[\n,]/))
      .map((v) => v.trim())
      .filter(Boolean);
  const scope = scopeFromParams(params);
  if (q !== "custom") return { projectId, question: { canned: q }, scope };

  const effects = list("effect").filter((e): e is SideEffectKind => (SIDE_EFFECT_KINDS as readonly string[]).includes(e));
  const kinds = list("kind").filter((k): k is AtomKind => (ATOM_KINDS as readonly string[]).includes(k));
  const outcomes = list("outcome").filter((o): o is ToolOutcome => (TOOL_OUTCOMES as readonly string[]).includes(o));
  const predicate: EvidencePredicate = {
    ...(effects.length ? { effectKinds: effects } : {}),
    ...(kinds.length ? { atomKinds: kinds } : {}),
    ...(list("prefix").length ? { valuePrefixes: list("prefix") } : {}),
    ...(list("tool").length ? { toolNames: list("tool") } : {}),
    ...(params.get("command") ? { commandPattern: params.get("command")! } : {}),
    ...(params.get("negated") === "on" ? { includeNegated: true } : {}),
    ...(outcomes.length ? { outcomes } : {}),
  };
  if (Object.keys(predicate).length === 0) {
    throw new AppError("VALIDATION_FAILED", "A custom question needs at least one condition", {
      fields: [{ path: "q", message: "add a condition" }],
    });
  }
  return { projectId, question: { predicate, title: "Custom question" }, scope };
}

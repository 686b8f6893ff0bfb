/**
 * Every server action under hostile input: each exported action (found on disk) called in process
 * with generated forms, as callers of every standing (signed out, a viewer, an operator and an
 * admin of the project, a member of another project, an instance admin), from the same site,
 * another site or none named, sometimes several times at once (a double-clicked submit). Checked:
 * no call makes Next.js answer 500; every call that must be refused is, with its code; and a batch
 * of refused calls changes neither the projects' data nor the audit log.
 */
import {
  type ActionCall,
  type ActionCallResult,
  callAction,
  expectedRefusal,
  malformedArguments,
  mayChange,
  ORIGINS,
  type OriginCase,
} from "./action-call";
import { type ActionFixture, fingerprint, restoreStandings, STANDINGS, type Standing, signIn } from "./action-fixture";
import { ACTION_FORMS, type ActionKind, hostileText, makeForm, probeForms } from "./action-forms";
import { type ActionReport, addFinding, countCall, emptyActionReport } from "./action-report";
import type { FuzzAction } from "./actions";
import type { Rng } from "./hostile";
import { seededRng } from "./seeded-rng";

export { type FuzzAction, actionFiles, inlineActionFiles, loadActions } from "./actions";
export { type ActionFixture, makeActionFixture } from "./action-fixture";
export { ACTION_FORMS } from "./action-forms";
export { type ActionReport, formatActionReport } from "./action-report";

const ORIGIN_CASES = Object.keys(ORIGINS) as OriginCase[];

function callerOf(fx: ActionFixture, kind: ActionKind, standing: Standing) {
  // Signing out ends the browser's session: only the leaver's browser does it, so the callers keep theirs.
  return standing === "signed-out" ? null : kind === "sign-out" ? fx.leaver : fx.people[standing];
}

/** Who may do the act, so that a probe value reaches the use case: the project's admin, or the instance admin. */
function probeCalls(action: FuzzAction, fx: ActionFixture, rng: Rng): ActionCall[] {
  const kind = ACTION_FORMS[action.id]!.kind;
  const standing: Standing =
    kind === "instance" ? "instance-admin" : kind === "project" ? "admin" : kind === "account" ? "operator" : "signed-out";
  const caller = callerOf(fx, kind, standing);
  return probeForms(action.id, { fx, caller, rng }).map((form) => ({
    action,
    kind,
    standing,
    caller,
    origin: "same",
    bound: kind === "project" ? fx.project.slug : null,
    form,
    address: `10.76.${rng.int(0, 255)}.${rng.int(1, 254)}`,
  }));
}

function makeCall(action: FuzzAction, fx: ActionFixture, rng: Rng, standing: Standing, origin: OriginCase): ActionCall {
  const kind = ACTION_FORMS[action.id]!.kind;
  const caller = callerOf(fx, kind, standing);
  const bound =
    kind !== "project"
      ? null
      : rng.chance(0.75)
        ? fx.project.slug
        : rng.pick([fx.other.slug, null, "no-such-project", "", fx.project.slug.toUpperCase(), hostileText({ fx, caller, rng })]);
  const form = makeForm(action.id, { fx, caller, rng });
  // An unbound act names its project in a hidden field, as a form may.
  if (bound === null && kind === "project" && rng.chance(0.8)) form.append("project", rng.pick([fx.project.slug, fx.other.slug]));
  const address = `10.77.${rng.int(0, 3)}.${rng.int(1, 254)}`;
  return { action, kind, standing, caller, origin, bound, form, address };
}

/** A call whose arguments are not what any page sends (sign-out reads none, so it has none to get wrong). */
function malformedCall(
  action: FuzzAction,
  fx: ActionFixture,
  rng: Rng,
  standing: Standing,
  origin: OriginCase,
): ActionCall | null {
  const call = makeCall(action, fx, rng, standing, origin);
  if (call.kind === "sign-out") return null;
  return { ...call, args: rng.pick(malformedArguments(call.kind, fx.project.slug)) };
}

/** Callers as often as their acts are worth trying: those who may act most, so that acts reach the use cases. */
const WEIGHTED_STANDINGS: readonly Standing[] = [
  ...STANDINGS,
  "admin",
  "admin",
  "admin",
  "operator",
  "operator",
  "instance-admin",
];

function randomCall(actions: FuzzAction[], fx: ActionFixture, rng: Rng): ActionCall {
  const origin = rng.chance(0.8) ? "same" : rng.pick(ORIGIN_CASES);
  const action = rng.pick(actions);
  const standing = rng.pick(WEIGHTED_STANDINGS);
  if (rng.chance(0.05)) return malformedCall(action, fx, rng, standing, origin) ?? makeCall(action, fx, rng, standing, origin);
  return makeCall(action, fx, rng, standing, origin);
}

function describeCall(call: ActionCall): string {
  const fields = [...call.form.entries()]
    .map(
      ([k, v]) =>
        `${k}=${typeof v === "string" ? JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…(${v.length})` : v) : "<file>"}`,
    )
    .join("&");
  if (call.args) return `${call.standing} origin=${call.origin} arguments ${describeArguments(call.args)}`;
  return `${call.standing} origin=${call.origin} bound=${JSON.stringify(call.bound)} ${fields.slice(0, 600)}`;
}

function describeArguments(args: unknown[]): string {
  return `[${args.map((a) => (a === undefined ? "undefined" : JSON.stringify(a))).join(", ")}]`;
}

/** Whether the call's outcome is the refusal it had to get (or any outcome, when none was required). */
function refusedAsRequired(required: ReturnType<typeof expectedRefusal>, result: ActionCallResult): boolean {
  if (required === null) return true;
  if (required === "refused") return result.refused && !result.serverError;
  return result.status === required;
}

/**
 * Runs about `calls` calls (deterministic for a seed), in batches of up to `concurrency` at once:
 * first every action as every caller from the same site, once from each other origin, and with
 * each field of its form set to each probe value by a caller who may act; then at random. A batch
 * is sometimes one call submitted several times at once.
 */
export async function runActionFuzz(options: {
  calls: number;
  seed?: number;
  concurrency?: number;
  actions: FuzzAction[];
  fixture: ActionFixture;
  onProgress?: (done: number) => void;
}): Promise<ActionReport> {
  const { fixture: fx } = options;
  const rng = seededRng(options.seed ?? 1);
  const concurrency = options.concurrency ?? 6;
  const report = emptyActionReport(options.actions.map((a) => a.id));
  // An action without a form cannot be called: reported, so the run fails until it has one.
  report.uncovered = options.actions.filter((a) => !(a.id in ACTION_FORMS)).map((a) => a.id);
  const actions = options.actions.filter((a) => a.id in ACTION_FORMS);
  const first: ActionCall[] = actions.flatMap((action) => [
    ...STANDINGS.map((standing) => makeCall(action, fx, rng, standing, "same")),
    ...ORIGIN_CASES.filter((o) => o !== "same").map((origin) => makeCall(action, fx, rng, rng.pick(STANDINGS), origin)),
    ...probeCalls(action, fx, rng),
    // Every action once with arguments no page sends, by a caller who may act.
    ...[malformedCall(action, fx, rng, "admin", "same"), malformedCall(action, fx, rng, "instance-admin", "same")].filter(
      (call): call is ActionCall => call !== null,
    ),
  ]);
  while (report.calls < options.calls || first.length > 0) {
    const batch: ActionCall[] = [];
    if (rng.chance(0.2)) {
      const one = first.shift() ?? randomCall(actions, fx, rng);
      for (let i = rng.int(2, concurrency); i > 0; i--) batch.push(one);
    } else for (let i = concurrency; i > 0; i--) batch.push(first.shift() ?? randomCall(actions, fx, rng));
    await runBatch(batch, fx, report);
    options.onProgress?.(report.calls);
  }
  return report;
}

async function runBatch(batch: ActionCall[], fx: ActionFixture, report: ActionReport): Promise<void> {
  const before = await fingerprint(fx);
  const results = await Promise.all(batch.map(callAction));
  const after = await fingerprint(fx);
  report.batches++;
  results.forEach((result, i) => {
    const call = batch[i]!;
    countCall(report, call.action.id, call.standing, result.status);
    if (result.serverError) {
      report.serverErrors++;
      addFinding(report, {
        kind: "5xx",
        action: call.action.id,
        call: describeCall(call),
        outcome: `${result.status}: ${result.detail}`,
      });
    }
    const required = expectedRefusal(call, fx);
    if (!refusedAsRequired(required, result)) {
      report.wrongRefusals++;
      addFinding(report, {
        kind: "refusal",
        action: call.action.id,
        call: describeCall(call),
        outcome: `expected ${required}, got ${result.status}: ${result.detail}`,
      });
    }
  });
  const changed = (what: string) => {
    report.changedByRefusal++;
    addFinding(report, {
      kind: "changed",
      action: batch[0]!.action.id,
      call: batch.map(describeCall).join("\n        "),
      outcome: `${what} changed; ${results.map((r) => r.status).join(", ")}`,
    });
  };
  const allRefused = results.every((r) => r.refused);
  if (allRefused) {
    report.refusedBatches++;
    if (before.global !== after.global) changed("the instance's people, projects or audit log");
  }
  // A project changes only by its members' acts in it, or an instance admin's: never by a stranger's or another project's member's.
  for (const which of ["project", "other"] as const) {
    const slug = fx[which].slug;
    const allowed = !allRefused && batch.some((call, i) => !results[i]!.refused && mayChange(call, fx, slug));
    if (!allowed && before[which] !== after[which]) changed(`project ${slug}`);
  }
  if (!allRefused) await restoreStandings(fx);
  // The leaver's browser signed out: sign it in again for the next sign-out.
  if (batch.some((call, i) => call.kind === "sign-out" && call.caller && results[i]!.status === "redirect"))
    fx.leaver.cookie = await signIn(fx.leaver.email, fx.password);
}

/**
 * What each server action is sent: a valid form for it (per action, so accepted calls reach the use
 * cases), mutated with the hostile values of hostile.ts and fast-check's draws (huge strings, NUL,
 * lone surrogates, numbers that are not, negative and huge days, unknown enum values, repeated and
 * missing fields, files where text is expected, the other project's ids and slug, uuids that do not
 * exist, malformed "session:span" pairs). An action without a form here fails the fuzz test.
 */
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import type { ActionFixture, FuzzPerson } from "./action-fixture";
import { hostileValue, type Rng } from "./hostile";

/**
 * How an action is called: inside a project (the slug bound first), an instance admin's act, an act
 * of the signed-in person on their own account, or signing in or out.
 */
export type ActionKind = "project" | "instance" | "account" | "sign-in" | "sign-out";

export type FormEntries = Array<[string, string | Blob]>;

/** What a form is generated for: the fixture, and who sends it (acts on oneself are refused, and tried). */
export interface FormContext {
  fx: ActionFixture;
  caller: FuzzPerson | null;
  rng: Rng;
}

interface ActionForm {
  kind: ActionKind;
  /** A valid form (valid for some caller: which project, role or target makes it succeed varies). */
  template: (c: FormContext) => FormEntries;
}

const ROLE_VALUES = ["VIEWER", "OPERATOR", "ADMIN"];

/** Values several fields share, hostile ones among them. */
const pools = {
  userId: ({ fx, caller, rng }: FormContext) =>
    rng.pick([...fx.bystanders.map((p) => p.id), fx.leaver.id, caller?.id ?? randomUUID(), randomUUID()]),
  email: ({ fx, caller, rng }: FormContext) =>
    rng.pick([
      ...fx.bystanders.map((p) => p.email),
      `new-${randomUUID()}@fuzz.example`,
      caller?.email ?? "nobody@fuzz.example",
      fx.bystanders[0]!.email.toUpperCase(),
      ` ${fx.leaver.email} `,
    ]),
  spanId: ({ fx, rng }: FormContext) => rng.pick([...fx.project.spanIds, ...fx.other.spanIds.slice(0, 2), randomUUID()]),
  sessionId: ({ fx, rng }: FormContext) => rng.pick([...fx.project.sessionIds, ...fx.other.sessionIds, randomUUID()]),
  original: ({ fx, rng }: FormContext) => {
    const session = fx.project.sessionIds[0]!;
    const otherSession = fx.other.sessionIds[0]!;
    return rng.chance(0.75)
      ? `${session}:${rng.pick(fx.project.spanIds)}`
      : rng.pick([
          `${otherSession}:${rng.pick(fx.other.spanIds)}`,
          `${session}:${rng.pick(fx.other.spanIds)}`,
          `${otherSession}:${rng.pick(fx.project.spanIds)}`,
          `${session}:${randomUUID()}`,
          `${session}:`,
          ":",
          session,
          `${session}:${fx.project.spanIds[0]}:${fx.project.spanIds[1]}`,
          `${session.toUpperCase()}:${fx.project.spanIds[0]!.toUpperCase()}`,
          ` ${session}:${fx.project.spanIds[0]}`,
        ]);
  },
  days: ({ rng }: FormContext) => String(rng.chance(0.8) ? rng.int(1, 800) : rng.pick([0, -1, -36_500, 36_500, 36_501, 2 ** 31])),
  version: ({ rng }: FormContext) => String(rng.chance(0.85) ? rng.int(0, 6) : rng.pick([-1, 2 ** 31, 2 ** 53])),
  reason: ({ rng }: FormContext) => rng.pick(["fuzz", "legal hold 42", "", "x".repeat(1000)]),
  role: ({ rng }: FormContext) => rng.pick(ROLE_VALUES),
};

const policyFields = ({ rng }: FormContext): FormEntries => [
  ["evidenceHorizonDays", String(rng.int(1, 800))],
  ["ttlNarrative", String(rng.int(0, 400))],
  ["ttlStructured", String(rng.int(0, 400))],
  ["ttlSideEffecting", String(rng.int(0, 800))],
  ...(rng.chance(0.8) ? ([["evidenceWorkloads", "on"]] as FormEntries) : []),
  ["systemConfigPrefixes", rng.pick(["/etc/\n/usr/lib/", "", "/etc/", "~/.ssh/\n/var/lib/"])],
];

/** Every action by id ("app/…/actions.ts#export"): how it is called and its valid form. */
export const ACTION_FORMS: Record<string, ActionForm> = {
  "app/admin/actions.ts#createProjectAction": {
    kind: "instance",
    template: ({ fx, rng }) => [
      ["slug", rng.chance(0.8) ? `act-new-${randomUUID().slice(0, 8)}` : fx.project.slug],
      ["name", rng.pick(["A project", "", "Évidence ✓"])],
    ],
  },
  "app/admin/actions.ts#addToProjectAction": {
    kind: "instance",
    // Never a caller's own email: that would change who the run's callers are in the middle of a batch.
    template: (c) => [
      ["projectSlug", c.rng.pick([c.fx.project.slug, c.fx.other.slug, "no-such-project"])],
      ["email", c.rng.pick([...c.fx.bystanders.map((p) => p.email), `new-${randomUUID()}@fuzz.example`])],
      ["role", pools.role(c)],
    ],
  },
  "app/admin/actions.ts#setInstanceRoleAction": {
    kind: "instance",
    template: (c) => [
      ["userId", c.rng.pick([...c.fx.bystanders.map((p) => p.id), c.caller?.id ?? randomUUID(), randomUUID()])],
      ["role", pools.role(c)],
    ],
  },
  "app/admin/actions.ts#setPasswordAction": {
    kind: "instance",
    // The run's password stays every person's password (callers are signed in again with it); a
    // bystander's sessions end, never a caller's (that would sign callers out mid-run).
    template: (c) => [
      ["userId", c.rng.pick([...c.fx.bystanders.map((p) => p.id), c.caller?.id ?? randomUUID(), randomUUID()])],
      ["newPassword", c.rng.chance(0.8) ? c.fx.password : c.rng.pick(["short", "", "p".repeat(300)])],
    ],
  },
  "app/account/actions.ts#changePasswordAction": {
    kind: "account",
    // Changed to the same password: the run's callers keep signing in with it.
    template: ({ fx, rng }) => [
      ["currentPassword", rng.chance(0.6) ? fx.password : rng.pick(["wrong-password", "", "p".repeat(300)])],
      ["newPassword", rng.chance(0.8) ? fx.password : rng.pick(["short", "", "p".repeat(300)])],
    ],
  },
  "app/account/actions.ts#signOutEverywhereAction": { kind: "account", template: () => [] },
  "app/login/actions.ts#signInAction": {
    kind: "sign-in",
    template: ({ fx, rng }) => [
      // Never the leaver's: failed guesses throttle an account, and the run signs the leaver in again.
      ["email", rng.pick([...fx.bystanders.map((p) => p.email), "nobody@fuzz.example"])],
      ["password", rng.chance(0.3) ? fx.password : rng.pick(["wrong-password", "p".repeat(200)])],
    ],
  },
  "app/login/actions.ts#signOutAction": { kind: "sign-out", template: () => [] },
  "app/projects/[slug]/evidence/actions.ts#saveQuestionAction": {
    kind: "project",
    template: ({ rng }) => [
      ["title", rng.pick(["Config changes", "", "é".repeat(200)])],
      [
        "query",
        rng.pick([
          "q=custom&prefix=/etc/&kind=PATH",
          "q=custom&command=sudo|apt&outcome=SUCCEEDED",
          "q=custom&command=(a)\\1",
          "q=custom&command=^(a%2B)%2B$",
          "q=custom&tool=Bash&effect=FILE_WRITE&negated=on",
          "q=custom",
          "q=modified-system-config",
          "q=custom&prefix=%00&session=not-a-uuid",
          "",
        ]),
      ],
    ],
  },
  "app/projects/[slug]/evidence/actions.ts#deleteSavedQuestionAction": {
    kind: "project",
    template: ({ fx, rng }) => [
      ["id", rng.pick([...fx.project.savedQuestionIds, ...fx.other.savedQuestionIds, randomUUID(), fx.project.sessionIds[0]!])],
    ],
  },
  "app/projects/[slug]/retention/actions.ts#bulkRetentionAction": {
    kind: "project",
    template: (c) => [
      ["act", c.rng.pick(["pin", "extend"])],
      ...Array.from({ length: c.rng.int(0, 4) }, (): [string, string] => ["original", pools.original(c)]),
      ["days", pools.days(c)],
      ["reason", pools.reason(c)],
    ],
  },
  "app/projects/[slug]/retention/actions.ts#cellRetentionAction": {
    kind: "project",
    template: (c) => [
      ["act", c.rng.pick(["pin", "extend"])],
      ["sessionId", pools.sessionId(c)],
      ["class", c.rng.pick(["NARRATIVE", "STRUCTURED", "SIDE_EFFECTING"])],
      ["provenance", c.rng.pick(["DURABLE", "EXPIRING", "LOST", "NONE"])],
      ["days", pools.days(c)],
      ["reason", pools.reason(c)],
    ],
  },
  "app/projects/[slug]/retention/actions.ts#simulateAction": {
    kind: "project",
    template: (c) => [...policyFields(c), ["horizonDays", String(c.rng.chance(0.9) ? c.rng.int(1, 60) : c.rng.int(61, 3650))]],
  },
  "app/projects/[slug]/retention/actions.ts#savePolicyAction": {
    kind: "project",
    template: (c) => [...policyFields(c), ["version", pools.version(c)], ["reason", pools.reason(c)]],
  },
  "app/projects/[slug]/retention/actions.ts#rollbackPolicyAction": {
    kind: "project",
    template: (c) => [
      ["toVersion", pools.version(c)],
      ["version", pools.version(c)],
      ["reason", pools.reason(c)],
    ],
  },
  "app/projects/[slug]/sessions/[id]/actions.ts#runGateAction": {
    kind: "project",
    template: (c) => {
      const from = c.rng.int(0, 5);
      return [
        ["sessionId", pools.sessionId(c)],
        ["fromSeq", String(from)],
        ["toSeq", String(from + c.rng.int(0, 3))],
        ["text", c.rng.pick(["Edited the configuration.", "wrote /etc/app/1.yaml and /etc/app/3.yaml"])],
        ...(["pointers", "honest", "commit"] as const)
          .filter(() => c.rng.chance(0.5))
          .map((name): [string, string] => [name, "on"]),
      ];
    },
  },
  "app/projects/[slug]/settings/actions.ts#createKeyAction": {
    kind: "project",
    template: (c) => [
      ["name", c.rng.pick(["ci runner", "k", "clé ✓"])],
      ["role", pools.role(c)],
    ],
  },
  "app/projects/[slug]/settings/actions.ts#revokeKeyAction": {
    kind: "project",
    template: (c) => [["keyId", c.rng.pick([...c.fx.project.keyIds, ...c.fx.other.keyIds, randomUUID()])]],
  },
  "app/projects/[slug]/settings/actions.ts#inviteMemberAction": {
    kind: "project",
    template: (c) => [
      ["email", pools.email(c)],
      ["name", c.rng.pick(["New Person", ""])],
      ["role", pools.role(c)],
    ],
  },
  "app/projects/[slug]/settings/actions.ts#setMemberRoleAction": {
    kind: "project",
    template: (c) => [
      ["userId", pools.userId(c)],
      ["role", pools.role(c)],
    ],
  },
  "app/projects/[slug]/settings/actions.ts#removeMemberAction": {
    kind: "project",
    template: (c) => [["userId", pools.userId(c)]],
  },
  "app/projects/[slug]/settings/actions.ts#updatePolicyAction": {
    kind: "project",
    template: (c) => [
      ...policyFields(c),
      [
        "cannedQuestions",
        c.rng.pick([
          "{}",
          "",
          '{"modified-system-config":{"title":"Config changes"}}',
          '{"modified-system-config":{"title":"a\\u0000b"}}',
          '{"modified-system-config":{"anyOf":[{"valuePrefixes":["/etc/\\u0000"]}]}}',
          '{"modified-system-config":{"anyOf":[{"x\\u0000":1}]}}',
          '{"modified-system-config":{"title":"C:\\\\u0000 is text"}}',
          `{"modified-system-config":{"anyOf":[{"x":${"[".repeat(20_000)}${"]".repeat(20_000)}}]}}`,
          '{"nope":{"anyOf":[]}}',
          "[]",
          "null",
        ]),
      ],
      ["version", pools.version(c)],
      ["reason", pools.reason(c)],
    ],
  },
  "app/projects/[slug]/spans/[id]/actions.ts#pinAction": {
    kind: "project",
    template: (c) => [
      ["spanId", pools.spanId(c)],
      ["reason", pools.reason(c)],
    ],
  },
  "app/projects/[slug]/spans/[id]/actions.ts#unpinAction": {
    kind: "project",
    template: (c) => [
      ["spanId", pools.spanId(c)],
      ["reason", pools.reason(c)],
    ],
  },
  "app/projects/[slug]/spans/[id]/actions.ts#setExpiryAction": {
    kind: "project",
    template: (c) => [
      ["spanId", pools.spanId(c)],
      ["days", pools.days(c)],
      ["reason", pools.reason(c)],
    ],
  },
};

/** Text no form field should trip over: the shared hostile values as a browser would send them, and fast-check's strings. */
const formText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 300 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom("NaN", "Infinity", "-0", "1e400", "0x10", "1_000", " 12 ", "12abc", "", "on", "off", "true"),
  fc.constantFrom("pin ", "PIN", "delete", "OWNER", "admin", "Admin", "SUPERUSER", "viewer\u0000"),
);

export function hostileText(c: FormContext): string {
  const { fx, rng } = c;
  const roll = rng.next();
  if (roll < 0.35) {
    const value = hostileValue(rng);
    if (typeof value === "string") return value;
    try {
      return typeof value === "number" ? String(value) : (JSON.stringify(value) ?? "null");
    } catch {
      return "null";
    }
  }
  if (roll < 0.65) return rng.arbitrary(formText);
  return rng.pick([
    fx.other.slug,
    fx.project.slug.toUpperCase(),
    fx.other.sessionIds[0]!,
    rng.pick(fx.other.spanIds),
    rng.pick(fx.other.keyIds),
    "00000000-0000-0000-0000-000000000000",
    randomUUID(),
    pools.original(c),
    pools.userId(c),
    pools.days(c),
    String(rng.pick([-1, 0, 36_501, 1e9, 2 ** 31, 2 ** 53 + 1, -(2 ** 63)])),
    "x".repeat(rng.pick([1001, 20_001, 100_001])),
    "é".repeat(50_000),
  ]);
}

/**
 * Values that broke text columns and queries: every field of every form gets each once (see
 * `probeForms`). No lone surrogate: FormData holds well-formed text only (it makes one U+FFFD).
 */
export const PROBE_VALUES = ["a\u0000b", "9".repeat(30)] as const;

/** The action's valid form with one field's value replaced, for each field and each probe value. */
export function probeForms(id: string, c: FormContext): FormData[] {
  const template = ACTION_FORMS[id]!.template(c);
  return template.flatMap((_, at) =>
    PROBE_VALUES.map((value) => {
      const form = new FormData();
      template.forEach(([n, v], i) => form.append(n, i === at ? value : v));
      return form;
    }),
  );
}

/** A form for the action: its valid form changed in zero to three places. */
export function makeForm(id: string, c: FormContext): FormData {
  const { rng } = c;
  let entries = ACTION_FORMS[id]!.template(c);
  // A third go through unchanged, so that acts are done, not only refused.
  for (let n = rng.chance(0.33) ? 0 : rng.int(1, 3); n > 0; n--) {
    const at = rng.int(0, Math.max(0, entries.length - 1));
    const name = entries[at]?.[0] ?? rng.pick(["x", "project"]);
    const roll = rng.next();
    if (roll < 0.5 && entries.length > 0) entries[at] = [name, hostileText(c)];
    else if (roll < 0.62) entries.splice(at, 1);
    else if (roll < 0.74) {
      const copies = rng.chance(0.9) ? rng.int(1, 3) : rng.int(100, 2000);
      for (let i = 0; i < copies; i++) entries.push([name, rng.chance(0.5) ? (entries[at]?.[1] ?? "") : hostileText(c)]);
    } else if (roll < 0.82)
      entries.push([rng.pick(["project", "x", "__proto__", "$ACTION_ID_1", "$ACTION_REF_1", "constructor"]), hostileText(c)]);
    else if (roll < 0.9)
      entries.push([name, new File([rng.pick(["x", "\u0000", "é".repeat(1000)])], rng.pick(["a.txt", "", "../x"]))]);
    else if (roll < 0.95) entries = [];
    else entries.push(["project", rng.pick([c.fx.other.slug, c.fx.project.slug])]);
  }
  const form = new FormData();
  for (const [name, value] of entries) form.append(name, value);
  return form;
}

/**
 * What the server-action fuzz run found, each kept found: the exported actions called in process
 * as the run calls them (real sign-in cookies, the request's Origin), one finding per test.
 */
import "./next-runtime";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { validatePredicate } from "@/lib/evidence/questions";
import { findMembership } from "@/lib/server/admin";
import { currentPolicy } from "@/lib/server/retention";
import { getAuth } from "@/lib/auth/server";
import { type ActionCall, type ActionCallResult, callAction, type OriginCase } from "./action-call";
import { type ActionFixture, fingerprint, makeActionFixture, type Standing } from "./action-fixture";
import { ACTION_FORMS } from "./action-forms";
import { type FuzzAction, loadActions } from "./actions";

let fx: ActionFixture;
let actions: FuzzAction[];

beforeAll(async () => {
  actions = await loadActions();
  fx = await makeActionFixture("found");
});

function call(
  name: string,
  standing: Standing,
  entries: Array<[string, string]>,
  options: { origin?: OriginCase; bound?: string | null; args?: unknown[] } = {},
): Promise<ActionCallResult> {
  const action = actions.find((a) => a.id.endsWith(`#${name}`))!;
  const kind = ACTION_FORMS[action.id]!.kind;
  const form = new FormData();
  for (const [k, v] of entries) form.append(k, v);
  const caller = standing === "signed-out" ? null : kind === "sign-out" ? fx.leaver : fx.people[standing];
  const request: ActionCall = {
    action,
    kind,
    standing,
    caller,
    origin: options.origin ?? "same",
    bound: kind === "project" ? (options.bound === undefined ? fx.project.slug : options.bound) : null,
    form,
    address: "10.75.0.1",
    ...(options.args ? { args: options.args } : {}),
  };
  return callAction(request);
}

async function auditCount(): Promise<bigint> {
  return (await db().auditChainHead.findUniqueOrThrow({ where: { id: 1 } })).seq;
}

describe("server actions, as the fuzz run found them", () => {
  it("arguments no page sends ([], [null, ...]) are a refusal with a code, not a TypeError in the error path", async () => {
    const before = await fingerprint(fx);
    for (const args of [[], [null], [null, null, null], [fx.project.slug, null, "x"], [null, {}]]) {
      const pin = await call("pinAction", "admin", [], { args });
      expect(pin, JSON.stringify(args)).toMatchObject({ refused: true, serverError: false });
      const admin = await call("createProjectAction", "instance-admin", [], { args });
      expect(admin, JSON.stringify(args)).toMatchObject({ refused: true, serverError: false });
      const signIn = await call("signInAction", "signed-out", [], { args });
      expect(signIn, JSON.stringify(args)).toMatchObject({ status: "refused", serverError: false });
    }
    const pin = await call("pinAction", "admin", [], { args: [fx.project.slug, null, null] });
    expect(pin.detail).toContain("VALIDATION_FAILED");
    expect(await fingerprint(fx)).toEqual(before);
  });

  it("signing out from another site, or naming none, signs nobody out and is no 500", async () => {
    for (const origin of ["foreign", "missing", "opaque"] as const) {
      const refused = await call("signOutAction", "operator", [], { origin });
      expect(refused, origin).toMatchObject({ status: "returned", serverError: false });
    }
    // The browser is still signed in; from its own site it signs out.
    const session = () => getAuth().api.getSession({ headers: new Headers({ cookie: fx.leaver.cookie }) });
    expect((await session())?.user.email).toBe(fx.leaver.email);
    const signedOut = await call("signOutAction", "operator", []);
    expect(signedOut.status).toBe("redirect");
    expect(await session()).toBeNull();
  });

  it("a project named with NUL or a lone surrogate is not found (not a 500), bound or in the hidden field", async () => {
    for (const slug of ["a\u0000b", "x\udfff", "\ud800", `${fx.project.slug}\u0000`]) {
      const bound = await call("pinAction", "admin", [["spanId", fx.project.spanIds[0]!]], { bound: slug });
      expect(bound.status, JSON.stringify(slug)).toBe("NOT_FOUND");
      const hidden = await call(
        "pinAction",
        "admin",
        [
          ["spanId", fx.project.spanIds[0]!],
          ["project", slug],
        ],
        { bound: null },
      );
      expect(hidden.status, JSON.stringify(slug)).toBe("NOT_FOUND");
      expect(await findMembership(fx.people.admin.id, slug)).toBeNull();
    }
    // Text that holds a surrogate pair is text: it names no project, and is asked.
    expect(await findMembership(fx.people.admin.id, "\ud83d\ude00")).toBeNull();
    expect((await findMembership(fx.people.admin.id, fx.project.slug))?.role).toBe("ADMIN");
  });

  // A form carries no lone surrogate (FormData makes it U+FFFD), but a NUL it carries as it is.
  it("a form field with NUL is refused with the field named, and nothing is written", async () => {
    const before = await fingerprint(fx);
    const audits = await auditCount();
    const key = await call("createKeyAction", "admin", [
      ["name", "a\u0000b"],
      ["role", "VIEWER"],
    ]);
    expect(key.status).toBe("VALIDATION_FAILED");
    expect(key.detail).toContain('"path":"name"');
    const expiry = await call("setExpiryAction", "admin", [
      ["spanId", fx.project.spanIds[0]!],
      ["days", "30"],
      ["reason", "x\u0000"],
    ]);
    expect(expiry.status).toBe("VALIDATION_FAILED");
    expect(expiry.detail).toContain('"path":"reason"');
    const project = await call("createProjectAction", "instance-admin", [
      ["slug", "found-nul"],
      ["name", "a\u0000b"],
    ]);
    expect(project.status).toBe("VALIDATION_FAILED");
    const pin = await call("bulkRetentionAction", "admin", [
      ["act", "pin"],
      ["original", `${fx.project.sessionIds[0]}:${fx.project.spanIds[0]}`],
      ["reason", "\u0000"],
    ]);
    expect(pin.status).toBe("VALIDATION_FAILED");
    expect(await fingerprint(fx)).toEqual(before);
    expect(await auditCount()).toBe(audits);
    // The same forms without the character go through.
    expect(
      (
        await call("createKeyAction", "admin", [
          ["name", "ab"],
          ["role", "VIEWER"],
        ])
      ).status,
    ).toBe("ok");
  });

  it("a question or canned-question edit with NUL inside, or nested without end, is refused naming the field (not a 500)", async () => {
    const audits = await auditCount();
    const saved = await call("saveQuestionAction", "admin", [
      ["title", "nul prefix"],
      ["query", "q=custom&prefix=/etc/%00&kind=PATH"],
    ]);
    expect(saved.status).toBe("VALIDATION_FAILED");
    expect(saved.detail).toContain('"path":"predicate.valuePrefixes"');
    expect(validatePredicate({ commandPattern: "sudo\u0000", toolNames: ["Bash", "x\u0000"] }).map((e) => e.field)).toEqual([
      "commandPattern",
      "toolNames",
    ]);
    // The policy in force, as the form is filled from it (with the version it was read at).
    const { policy: inForce, version } = await currentPolicy(fx.project.id);
    const policy = (cannedQuestions: string) =>
      call("updatePolicyAction", "admin", [
        ["evidenceHorizonDays", String(inForce.evidenceHorizonDays)],
        ["ttlNarrative", String(inForce.ttlDays.NARRATIVE)],
        ["ttlStructured", String(inForce.ttlDays.STRUCTURED)],
        ["ttlSideEffecting", String(inForce.ttlDays.SIDE_EFFECTING)],
        ...(inForce.evidenceWorkloads ? [["evidenceWorkloads", "on"] as [string, string]] : []),
        ["systemConfigPrefixes", inForce.systemConfigPrefixes.join("\n")],
        ["cannedQuestions", cannedQuestions],
        ["version", String(version)],
        ["reason", "fuzz finding"],
      ]);
    for (const edit of [
      '{"modified-system-config":{"title":"a\\u0000b"}}',
      '{"modified-system-config":{"anyOf":[{"x\\u0000":1}]}}',
      '{"modified-system-config":{"anyOf":[{"valuePrefixes":["/etc/\\u0000"]}]}}',
    ]) {
      const refused = await policy(edit);
      expect(refused.status, edit).toBe("VALIDATION_FAILED");
    }
    // Nested past any edit's shape: refused before anything walks it (it overflowed the stack).
    const deep = await policy(`{"modified-system-config":{"anyOf":[{"x":${"[".repeat(20_000)}${"]".repeat(20_000)}}]}}`);
    expect(deep.status).toBe("VALIDATION_FAILED");
    expect(deep.detail).toContain("nested deeper than");
    expect(await auditCount()).toBe(audits);
    // A backslash followed by "u0000" is text like any other.
    expect((await policy('{"modified-system-config":{"title":"C:\\\\u0000 is a path"}}')).status).toBe("ok");
  });

  it("rolling back to a version beyond 32 bits is not found (not a 500)", async () => {
    for (const toVersion of ["2147483648", "2147483647", "4294967296"]) {
      const result = await call("rollbackPolicyAction", "admin", [
        ["toVersion", toVersion],
        ["version", "0"],
      ]);
      expect(result.status, toVersion).toBe("NOT_FOUND");
    }
    // Past the numbers a form can say exactly, the form's schema refuses it.
    const unsafe = await call("rollbackPolicyAction", "admin", [
      ["toVersion", "9007199254740993"],
      ["version", "0"],
    ]);
    expect(unsafe.status).toBe("VALIDATION_FAILED");
  });

  it("one member removed twice at once: one removal, the other not found, one audit row", async () => {
    const target = fx.bystanders[0]!;
    const audits = await auditCount();
    const results = await Promise.all(
      Array.from({ length: 4 }, () => call("removeMemberAction", "admin", [["userId", target.id]])),
    );
    expect(results.map((r) => r.status).sort()).toEqual(["NOT_FOUND", "NOT_FOUND", "NOT_FOUND", "ok"]);
    expect(await auditCount()).toBe(audits + 1n);
    await db().projectMember.create({ data: { projectId: fx.project.id, userId: target.id, role: "OPERATOR" } });
    // A role change racing a removal: whichever comes second finds no member.
    const raced = await Promise.all([
      call("setMemberRoleAction", "admin", [
        ["userId", target.id],
        ["role", "ADMIN"],
      ]),
      call("removeMemberAction", "admin", [["userId", target.id]]),
      call("setMemberRoleAction", "admin", [
        ["userId", target.id],
        ["role", "VIEWER"],
      ]),
    ]);
    for (const r of raced) expect(["ok", "NOT_FOUND"], r.detail).toContain(r.status);
    await db().projectMember.upsert({
      where: { projectId_userId: { projectId: fx.project.id, userId: target.id } },
      create: { projectId: fx.project.id, userId: target.id, role: "OPERATOR" },
      update: { role: "OPERATOR" },
    });
  });
});

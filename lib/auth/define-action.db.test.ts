import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "@/lib/db/client";
import { addMember } from "@/lib/server/admin";
import { makeTestProject, TEST_ACTOR } from "@/lib/server/admin/test-project";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { pinOriginals } from "@/lib/server/provenance";
import { type ActionEnvironment, defineAction, defineInstanceAction, formInput, requireSameOrigin } from "./define-action";
import type { SignedInUser } from "./session";

/** A person who is a member of the project with `role` there; their instance role is another matter. */
async function member(projectId: string, role: "VIEWER" | "OPERATOR" | "ADMIN", instanceRole: SignedInUser["role"] = "VIEWER") {
  const email = `${role.toLowerCase()}-${randomUUID()}@example.com`;
  const added = await addMember({ projectId, email, role }, TEST_ACTOR);
  return { id: added.userId, email, name: role, role: instanceRole } satisfies SignedInUser;
}

/** A person with an account who belongs to no project given. */
async function stranger(instanceRole: SignedInUser["role"] = "VIEWER"): Promise<SignedInUser> {
  const elsewhere = await makeTestProject("elsewhere");
  return member(elsewhere.id, "ADMIN", instanceRole);
}

/** What a request to the action looks like: its headers, who is signed in, and the pages revalidated. */
function environment(user: SignedInUser | null, headers: Record<string, string>) {
  const revalidated: string[] = [];
  const env: ActionEnvironment = {
    headers: async () => new Headers(headers),
    currentUser: async () => user,
    revalidate: (path) => revalidated.push(path),
  };
  return { env, revalidated };
}

const SAME_ORIGIN = { host: "custodian.example:3000", origin: "http://custodian.example:3000" };

async function twoSpans() {
  const project = await makeTestProject("define-action");
  const { session } = await upsertSession(project.id, { externalId: "s", runtime: "test" });
  const spans = await appendSpans(
    project.id,
    session.id,
    [0, 1].map((seq) => ({
      seq,
      kind: "MESSAGE" as const,
      occurredAt: new Date(),
      body: new TextEncoder().encode(`note ${seq}`),
    })),
  );
  const [operator, viewer] = [await member(project.id, "OPERATOR"), await member(project.id, "VIEWER", "ADMIN")];
  return { project, session, spans, operator, viewer };
}

/** A bulk pin as the retention forms send it, through defineAction. */
function pinAction(env: ActionEnvironment, ran: { count: number }) {
  return defineAction(
    {
      permission: "originals:pin",
      input: z.object({
        original: z.array(z.string().regex(/^[0-9a-f-]{36}:[0-9a-f-]{36}$/, "not a session:span pair")),
        reason: z.string().min(1, "required"),
      }),
      lists: ["original"],
      revalidate: ["/retention"],
      run: async ({ input, actor, project }) => {
        ran.count += 1;
        const keys = input.original.map((o) => ({ sessionId: o.split(":")[0]!, spanId: o.split(":")[1]! }));
        const outcome = await pinOriginals(project.id, keys, actor, input.reason);
        return `Pinned ${outcome.changed.length}`;
      },
    },
    env,
  );
}

function form(entries: Array<[string, string]>) {
  const data = new FormData();
  for (const [k, v] of entries) data.append(k, v);
  return data;
}

describe("defineAction", () => {
  it("refuses a request without an Origin header, before anything runs", async () => {
    const { project, session, spans, operator } = await twoSpans();
    const ran = { count: 0 };
    const { env } = environment(operator, { host: SAME_ORIGIN.host });
    const result = await pinAction(env, ran)(
      project.slug,
      null,
      form([
        ["original", `${session.id}:${spans[0]!.id}`],
        ["reason", "hold"],
      ]),
    );
    expect(result).toMatchObject({ ok: false, error: { code: "FORBIDDEN" } });
    expect(ran.count).toBe(0);
    expect((await db().spanOriginal.findFirstOrThrow({ where: { spanId: spans[0]!.id } })).pinned).toBe(false);
  });

  it("refuses a foreign Origin, and compares with x-forwarded-host behind a proxy", () => {
    expect(() => requireSameOrigin(new Headers({ host: "a.example", origin: "https://evil.example" }))).toThrow(/another site/);
    expect(() => requireSameOrigin(new Headers({ host: "a.example", origin: "null" }))).toThrow(/not a URL/);
    expect(() =>
      requireSameOrigin(new Headers({ host: "127.0.0.1:3000", "x-forwarded-host": "a.example", origin: "https://a.example" })),
    ).not.toThrow();
    expect(() => requireSameOrigin(new Headers({ host: "a.example", origin: "https://a.example" }))).not.toThrow();
  });

  it("refuses a signed-out request and a project role without the permission, whatever the instance role", async () => {
    const { project, session, spans, viewer } = await twoSpans();
    const ran = { count: 0 };
    const fields = form([
      ["original", `${session.id}:${spans[0]!.id}`],
      ["reason", "hold"],
    ]);
    const signedOut = await pinAction(environment(null, SAME_ORIGIN).env, ran)(project.slug, null, fields);
    expect(signedOut).toMatchObject({ ok: false, error: { code: "UNAUTHENTICATED" } });
    // An instance admin who is a viewer in this project acts as a viewer here.
    expect(viewer.role).toBe("ADMIN");
    const asViewer = await pinAction(environment(viewer, SAME_ORIGIN).env, ran)(project.slug, null, fields);
    expect(asViewer).toMatchObject({ ok: false, error: { code: "FORBIDDEN" } });
    expect(ran.count).toBe(0);
  });

  it("answers NOT_FOUND to a person who is not a member, as for a project that does not exist, before anything runs", async () => {
    const { project, session, spans } = await twoSpans();
    const ran = { count: 0 };
    const fields = form([
      ["original", `${session.id}:${spans[0]!.id}`],
      ["reason", "hold"],
    ]);
    const outsider = await stranger("ADMIN");
    const refused = await pinAction(environment(outsider, SAME_ORIGIN).env, ran)(project.slug, null, fields);
    expect(refused).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
    const unknown = await pinAction(environment(outsider, SAME_ORIGIN).env, ran)("no-such-project", null, fields);
    expect(unknown).toEqual({ ...refused, values: unknown.ok ? undefined : unknown.values });
    const unnamed = await pinAction(environment(outsider, SAME_ORIGIN).env, ran)(null, null, fields);
    expect(unnamed).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
    expect(ran.count).toBe(0);
    expect((await db().spanOriginal.findFirstOrThrow({ where: { spanId: spans[0]!.id } })).pinned).toBe(false);
  });

  it("reads the project from a hidden field when none is bound; a bound project wins over the field", async () => {
    const { project, session, spans, operator } = await twoSpans();
    const other = await makeTestProject("other");
    const ran = { count: 0 };
    const fields = (name: string) =>
      form([
        ["project", name],
        ["original", `${session.id}:${spans[0]!.id}`],
        ["reason", "hold"],
      ]);
    const viaField = await pinAction(environment(operator, SAME_ORIGIN).env, ran)(null, null, fields(project.slug));
    expect(viaField).toEqual({ ok: true, message: "Pinned 1" });
    // Bound to a project the operator is not a member of: the field's project does not rescue it.
    const bound = await pinAction(environment(operator, SAME_ORIGIN).env, ran)(other.slug, null, fields(project.slug));
    expect(bound).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
    expect(ran.count).toBe(1);
  });

  it("names the fields at fault and returns what was typed", async () => {
    const { project, operator } = await twoSpans();
    const ran = { count: 0 };
    const result = await pinAction(environment(operator, SAME_ORIGIN).env, ran)(
      project.slug,
      null,
      form([
        ["original", "not-a-pair"],
        ["reason", ""],
      ]),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("VALIDATION_FAILED");
    expect(result.error.fields?.map((f) => f.path).sort()).toEqual(["original.0", "reason"]);
    expect(result.values).toEqual({ original: "not-a-pair", reason: "" });
    expect(ran.count).toBe(0);
  });

  it("runs the act as the signed-in member: the audit row names them, and the project's pages are revalidated", async () => {
    const { project, session, spans, operator } = await twoSpans();
    const { env, revalidated } = environment(operator, SAME_ORIGIN);
    const result = await pinAction(env, { count: 0 })(
      project.slug,
      null,
      form([
        ["original", `${session.id}:${spans[0]!.id}`],
        ["original", `${session.id}:${spans[1]!.id}`],
        ["reason", "incident INC-1"],
      ]),
    );
    expect(result).toEqual({ ok: true, message: "Pinned 2" });
    expect(revalidated).toEqual([`/projects/${project.slug}/retention`]);
    const audit = await db().auditLog.findMany({ where: { projectId: project.id, act: "originals.pin" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      act: "originals.pin",
      actorType: "USER",
      actorId: operator.id,
      actorLabel: operator.email,
      reason: "incident INC-1",
    });
  });

  it("revalidates the pages the act names from what it answered: none for an act that wrote nothing", async () => {
    const { project, operator } = await twoSpans();
    const { env, revalidated } = environment(operator, SAME_ORIGIN);
    const act = defineAction<{ save: string }, { preview: string }>(
      {
        permission: "originals:pin",
        input: z.object({ save: z.enum(["yes", "no"]) }),
        revalidate: (_input, outcome) => (typeof outcome === "object" && outcome.data ? [] : ["/retention"]),
        run: async ({ input }) => (input.save === "yes" ? "Saved" : { message: "Not saved", data: { preview: "/x" } }),
      },
      env,
    );
    expect(await act(project.slug, null, form([["save", "no"]]))).toMatchObject({ ok: true, message: "Not saved" });
    expect(revalidated).toEqual([]);
    expect(await act(project.slug, null, form([["save", "yes"]]))).toMatchObject({ ok: true, message: "Saved" });
    expect(revalidated).toEqual([`/projects/${project.slug}/retention`]);
  });

  it("reads repeated fields as lists and leaves blank fields and the project field out", () => {
    const data = form([
      ["original", "a"],
      ["days", ""],
      ["project", "demo"],
      ["$ACTION_ID_1", "x"],
    ]);
    expect(formInput(data, ["original", "spanId"])).toEqual({ original: ["a"], spanId: [] });
  });
});

describe("defineInstanceAction", () => {
  it("runs only for an instance admin, whatever their project roles", async () => {
    const { operator } = await twoSpans();
    const ran = { count: 0 };
    const action = (env: ActionEnvironment) =>
      defineInstanceAction(
        {
          input: z.object({ slug: z.string() }),
          revalidate: ["/admin"],
          run: async ({ input }) => {
            ran.count += 1;
            return `made ${input.slug}`;
          },
        },
        env,
      );
    const projectAdmin = await stranger("VIEWER");
    expect(await action(environment(projectAdmin, SAME_ORIGIN).env)(null, form([["slug", "x"]]))).toMatchObject({
      ok: false,
      error: { code: "FORBIDDEN" },
    });
    expect(await action(environment(null, SAME_ORIGIN).env)(null, form([["slug", "x"]]))).toMatchObject({
      ok: false,
      error: { code: "UNAUTHENTICATED" },
    });
    const instanceAdmin = { ...operator, role: "ADMIN" as const };
    const { env, revalidated } = environment(instanceAdmin, SAME_ORIGIN);
    expect(await action(env)(null, form([["slug", "x"]]))).toEqual({ ok: true, message: "made x" });
    expect(revalidated).toEqual(["/admin"]);
    expect(ran.count).toBe(1);
  });
});

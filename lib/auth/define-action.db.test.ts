import { describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "@/lib/db/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { pinOriginals } from "@/lib/server/provenance";
import { type ActionEnvironment, defineAction, formInput, requireSameOrigin } from "./define-action";
import type { SignedInUser } from "./session";

const OPERATOR: SignedInUser = { id: "u-op", email: "op@example.com", name: "Op", role: "OPERATOR" };
const VIEWER: SignedInUser = { id: "u-view", email: "view@example.com", name: "View", role: "VIEWER" };

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
  return { project, session, spans };
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
      run: async ({ input, actor }) => {
        ran.count += 1;
        const keys = input.original.map((o) => ({ sessionId: o.split(":")[0]!, spanId: o.split(":")[1]! }));
        const outcome = await pinOriginals(keys, actor, input.reason);
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
    const { session, spans } = await twoSpans();
    const ran = { count: 0 };
    const { env } = environment(OPERATOR, { host: SAME_ORIGIN.host });
    const result = await pinAction(env, ran)(
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

  it("refuses a signed-out request and a role without the permission", async () => {
    const { session, spans } = await twoSpans();
    const ran = { count: 0 };
    const fields = form([
      ["original", `${session.id}:${spans[0]!.id}`],
      ["reason", "hold"],
    ]);
    const signedOut = await pinAction(environment(null, SAME_ORIGIN).env, ran)(null, fields);
    expect(signedOut).toMatchObject({ ok: false, error: { code: "UNAUTHENTICATED" } });
    const viewer = await pinAction(environment(VIEWER, SAME_ORIGIN).env, ran)(null, fields);
    expect(viewer).toMatchObject({ ok: false, error: { code: "FORBIDDEN" } });
    expect(ran.count).toBe(0);
  });

  it("names the fields at fault and returns what was typed", async () => {
    const ran = { count: 0 };
    const result = await pinAction(environment(OPERATOR, SAME_ORIGIN).env, ran)(
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

  it("runs the act as the signed-in person: the audit row names them, and the pages are revalidated", async () => {
    const { project, session, spans } = await twoSpans();
    const { env, revalidated } = environment(OPERATOR, SAME_ORIGIN);
    const result = await pinAction(env, { count: 0 })(
      null,
      form([
        ["original", `${session.id}:${spans[0]!.id}`],
        ["original", `${session.id}:${spans[1]!.id}`],
        ["reason", "incident INC-1"],
      ]),
    );
    expect(result).toEqual({ ok: true, message: "Pinned 2" });
    expect(revalidated).toEqual(["/retention"]);
    const audit = await db().auditLog.findMany({ where: { projectId: project.id } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      act: "originals.pin",
      actorType: "USER",
      actorId: OPERATOR.id,
      actorLabel: OPERATOR.email,
      reason: "incident INC-1",
    });
  });

  it("reads repeated fields as lists and leaves blank fields out", () => {
    const data = form([
      ["original", "a"],
      ["days", ""],
      ["$ACTION_ID_1", "x"],
    ]);
    expect(formInput(data, ["original", "spanId"])).toEqual({ original: ["a"], spanId: [] });
  });
});

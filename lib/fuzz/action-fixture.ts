/**
 * Who calls the server actions in the fuzz run, and what they act on: a project with a viewer, an
 * operator and an admin, another project with its own admin, an instance admin who is a member of
 * neither, and nobody signed in. Each person is signed in for real (their session cookie comes from
 * the sign-in endpoint), so an action reads its caller exactly as it does when served.
 */
import { randomBytes, randomInt } from "node:crypto";
import type { RoleName } from "@/lib/core/permissions";
import { db } from "@/lib/db/client";
import { getAuth } from "@/lib/auth/server";
import { addMember, createApiKey, createProject, createUser } from "@/lib/server/admin";
import { appendSpans, upsertSession } from "@/lib/server/ingest";
import { CLIENT_ADDRESS_HEADER } from "@/lib/core/client-address";

/** Where the in-process requests are addressed: a same-origin form posts with this Origin. */
export const ACTION_ORIGIN = "http://custodian.test";
export const ACTION_HOST = "custodian.test";

export const STANDINGS = ["signed-out", "viewer", "operator", "admin", "other-member", "instance-admin"] as const;
export type Standing = (typeof STANDINGS)[number];
type Person = Exclude<Standing, "signed-out">;

export interface FuzzPerson {
  id: string;
  email: string;
  /** The Cookie header of their signed-in browser. */
  cookie: string;
  /** Their instance role, and their role in the fuzzed project and in the other one. */
  instanceRole: RoleName;
  roles: { project?: RoleName; other?: RoleName };
}

export interface FuzzProject {
  id: string;
  slug: string;
  sessionIds: string[];
  spanIds: string[];
  keyIds: string[];
  /** Saved questions, as the run finds them after its acts (the deleting act needs some). */
  savedQuestionIds: string[];
}

export interface ActionFixture {
  project: FuzzProject;
  other: FuzzProject;
  people: Record<Person, FuzzPerson>;
  /** Members of the project nobody calls as: the people the member acts change and remove. */
  bystanders: FuzzPerson[];
  /** A member whose browser signs out (signing out ends a session; the callers keep theirs). */
  leaver: FuzzPerson;
  password: string;
}

/** The project's people as the run expects them: restored after any act that changed them. */
function expectedStanding(fx: ActionFixture): FuzzPerson[] {
  return [...Object.values(fx.people), ...fx.bystanders, fx.leaver];
}

async function fuzzProject(label: string, suffix: string): Promise<FuzzProject> {
  const project = await createProject({ slug: `${label}-${suffix}`, name: `Actions ${label} ${suffix}` });
  const actor = { type: "SYSTEM" as const, label: "fuzz" };
  const keys = [
    await createApiKey(project.id, "fuzz-operator", "OPERATOR", actor),
    await createApiKey(project.id, "fuzz-viewer", "VIEWER", actor),
  ];
  const { session } = await upsertSession(project.id, { externalId: `actions-${suffix}`, runtime: "claude-code", cwd: "/srv" });
  const enc = new TextEncoder();
  const spans = await appendSpans(
    project.id,
    session.id,
    Array.from({ length: 6 }, (_, seq) => ({
      seq,
      kind: seq % 2 ? ("TOOL_CALL" as const) : ("MESSAGE" as const),
      ...(seq % 2 ? { toolName: "write_file", toolInput: { path: `/etc/app/${seq}.yaml` } } : { role: "assistant" }),
      occurredAt: new Date(),
      body: enc.encode(seq % 2 ? `{"path":"/etc/app/${seq}.yaml"}` : `step ${seq}`),
    })),
  );
  return {
    id: project.id,
    slug: project.slug,
    sessionIds: [session.id],
    spanIds: spans.map((s) => s.id),
    keyIds: keys.map((k) => k.id),
    savedQuestionIds: [],
  };
}

/**
 * A signed-in browser's Cookie header, from the sign-in endpoint itself. Each from an address of its
 * own: the sign-in library allows an address a few sign-ins every ten seconds.
 */
export async function signIn(email: string, password: string): Promise<string> {
  const address = `10.78.${randomInt(0, 256)}.${randomInt(1, 255)}`;
  const response = await getAuth().handler(
    new Request(`${ACTION_ORIGIN}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: ACTION_ORIGIN, host: ACTION_HOST, [CLIENT_ADDRESS_HEADER]: address },
      body: JSON.stringify({ email, password }),
    }),
  );
  const cookies = response.headers.getSetCookie().map((c) => c.split(";")[0]!);
  const session = cookies.find((c) => c.includes("session_token="));
  if (response.status !== 200 || !session) throw new Error(`fuzz: signing in ${email} answered ${response.status}`);
  return cookies.join("; ");
}

export async function makeActionFixture(label = "act"): Promise<ActionFixture> {
  const suffix = randomBytes(4).toString("hex");
  const project = await fuzzProject(label, suffix);
  const other = await fuzzProject(`${label}-other`, suffix);
  const password = `fuzz-${randomBytes(12).toString("hex")}`;
  const actor = { type: "SYSTEM" as const, label: "fuzz" };
  const person = async (name: string, instanceRole: RoleName, roles: FuzzPerson["roles"]): Promise<FuzzPerson> => {
    const email = `${name}-${suffix}@fuzz.example`;
    const user = await createUser({ email, role: instanceRole, password }, actor);
    if (roles.project) await addMember({ projectId: project.id, email, role: roles.project }, actor);
    if (roles.other) await addMember({ projectId: other.id, email, role: roles.other }, actor);
    return { id: user.id, email, cookie: await signIn(email, password), instanceRole, roles };
  };
  const people: Record<Person, FuzzPerson> = {
    viewer: await person("viewer", "VIEWER", { project: "VIEWER" }),
    operator: await person("operator", "VIEWER", { project: "OPERATOR" }),
    // An instance viewer: inside a project only the membership's role counts.
    admin: await person("admin", "VIEWER", { project: "ADMIN" }),
    "other-member": await person("other-admin", "VIEWER", { other: "ADMIN" }),
    "instance-admin": await person("instance-admin", "ADMIN", {}),
  };
  const bystanders = [
    await person("bystander-a", "VIEWER", { project: "OPERATOR" }),
    await person("bystander-b", "VIEWER", { project: "VIEWER", other: "VIEWER" }),
  ];
  const leaver = await person("leaver", "VIEWER", { project: "OPERATOR" });
  return { project, other, people, bystanders, leaver, password };
}

/**
 * Puts the fixture's people back as they were: the acts fuzzed change roles, memberships and
 * instance roles, and a caller whose standing changed would no longer be the caller the run
 * thinks it is. Written directly, without audit rows: this is the test's doing, not an act. Then
 * reads the saved questions the acts left, for the acts that delete them.
 */
export async function restoreStandings(fx: ActionFixture): Promise<void> {
  const people = expectedStanding(fx);
  const ids = people.map((p) => p.id);
  await db().$transaction(async (tx) => {
    for (const p of people) await tx.user.update({ where: { id: p.id }, data: { role: p.instanceRole } });
    await tx.projectMember.deleteMany({ where: { userId: { in: ids }, projectId: { in: [fx.project.id, fx.other.id] } } });
    // Projects an instance admin created in the run made them an admin there; the run names none of them.
    await tx.projectMember.deleteMany({ where: { userId: { in: ids }, projectId: { notIn: [fx.project.id, fx.other.id] } } });
    const rows = people.flatMap((p) => [
      ...(p.roles.project ? [{ projectId: fx.project.id, userId: p.id, role: p.roles.project }] : []),
      ...(p.roles.other ? [{ projectId: fx.other.id, userId: p.id, role: p.roles.other }] : []),
    ]);
    await tx.projectMember.createMany({ data: rows });
  });
  for (const project of [fx.project, fx.other]) {
    const saved = await db().$queryRaw<
      Array<{ id: string }>
    >`select id::text from saved_question where project_id = ${project.id}::uuid`;
    project.savedQuestionIds = saved.map((row) => row.id);
  }
}

/** What the run compares before and after a batch: each project's data, and what is not any one project's. */
export interface Fingerprint {
  project: string;
  other: string;
  /** Every person's instance role, the number of projects, and the audit chain's head (any audit row written moves it). */
  global: string;
}

/**
 * Hashes of what an act may change: per project, its members, keys, policy and its versions,
 * sessions, spans, originals' holds and expiries, gate decisions, compactions and saved questions;
 * beside them, the instance's people and projects and the audit chain. Throttle counters and
 * sign-in sessions are left out: a refused sign-in counts, and signing out ends a session.
 */
export async function fingerprint(fx: ActionFixture): Promise<Fingerprint> {
  const rows = await db().$queryRawUnsafe<Array<{ key: string; print: string }>>(
    `select x.pid::text as key, md5(concat_ws('|',
       (select string_agg(user_id::text || role::text, ',' order by user_id) from project_member where project_id = x.pid),
       (select string_agg(id::text || coalesce(revoked_at::text, '') || role::text, ',' order by id) from api_key where project_id = x.pid),
       (select to_jsonb(p)::text from retention_policy p where project_id = x.pid),
       (select count(*) from retention_policy_version where project_id = x.pid),
       (select string_agg(to_jsonb(s)::text, ',' order by id) from session s where project_id = x.pid),
       (select string_agg(o.span_id::text || o.pinned::text || coalesce(o.expires_at::text, '') || coalesce(o.deleted_at::text, ''), ',' order by o.span_id)
          from span_original o join session s on s.id = o.session_id where s.project_id = x.pid),
       (select count(*) from span sp join session s on s.id = sp.session_id where s.project_id = x.pid),
       (select count(*) from gate_decision g join session s on s.id = g.session_id where s.project_id = x.pid),
       (select count(*) from compaction where project_id = x.pid),
       (select string_agg(id::text, ',' order by id) from saved_question where project_id = x.pid)
     )) as print
       from unnest($1::uuid[]) as x(pid)
     union all
     select 'global', md5(concat_ws('|',
       (select md5(string_agg(id::text || role::text, ',' order by id)) from app_user),
       (select count(*) from project),
       (select coalesce(max(seq), 0) from audit_chain_head)
     ))`,
    [fx.project.id, fx.other.id],
  );
  const print = (key: string) => rows.find((r) => r.key === key)!.print;
  return { project: print(fx.project.id), other: print(fx.other.id), global: print("global") };
}

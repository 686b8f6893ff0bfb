import { beforeAll, describe, expect, it } from "vitest";
import { DAY_MS, DEFAULT_POLICY } from "@/lib/evidence/policy";
import type { RetentionPolicy } from "@/lib/evidence/types";
import { makeTestProject, TEST_ACTOR } from "@/lib/server/admin/test-project";
import { candidateSummaryFor, reclaim } from "@/lib/server/gate";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { savePolicyVersion } from "@/lib/server/retention";
import { replayDecisions } from "./replay";
import { simulateRetention } from "./simulate";

/**
 * The replay of recorded gate decisions, against decisions the gate itself made and recorded: a
 * shorter side-effecting TTL turns a durable reclamation into a refusal (gained), a longer structured
 * TTL turns an expiring refusal into a reclamation (lost). Dry runs record nothing, and decisions
 * older than the replay window or of another project are not replayed.
 */

// Structured originals expire before their horizon (EXPIRING); side-effecting ones after it (DURABLE).
const POLICY: RetentionPolicy = { ...DEFAULT_POLICY, ttlDays: { NARRATIVE: 30, STRUCTURED: 100, SIDE_EFFECTING: 730 } };
const encode = (text: string) => new TextEncoder().encode(text);
const write = (seq: number, name: string, occurredAt: Date) => {
  const input = { path: `/etc/app/${name}.conf`, content: `${name}: on` };
  return {
    seq,
    kind: "TOOL_CALL" as const,
    toolName: "write_file",
    toolInput: input,
    occurredAt,
    body: encode(JSON.stringify(input)),
  };
};
const read = (seq: number, name: string) => {
  const input = { path: `/srv/app/${name}.ts` };
  return {
    seq,
    kind: "TOOL_CALL" as const,
    toolName: "Read",
    toolInput: input,
    occurredAt: new Date(),
    body: encode(JSON.stringify(input)),
  };
};

async function projectWithSpans(label: string) {
  const project = await makeTestProject(label, POLICY);
  const { session } = await upsertSession(project.id, { externalId: "replayed", runtime: "test", cwd: "/srv/app" });
  const old = new Date(Date.now() - 45 * DAY_MS);
  const spans = await appendSpans(project.id, session.id, [
    write(0, "durable", new Date()),
    write(1, "dry-run", new Date()),
    read(2, "expiring"),
    read(3, "honest"),
    write(4, "long-ago", old),
  ]);
  const [durable, dryRun, expiring, honest, longAgo] = spans.map((s) => s.id) as [string, string, string, string, string];
  const ask = async (spanId: string, options: { dryRun?: boolean; honest?: boolean; at?: Date } = {}) => {
    const summary = await candidateSummaryFor(session.id, [spanId], "The agent did some work.", {
      pointers: true,
      honest: options.honest ?? false,
    });
    const result = await reclaim({
      projectId: project.id,
      sessionId: session.id,
      selection: { spanIds: [spanId] },
      summary,
      dryRun: options.dryRun ?? false,
      requester: "api-key:cust_replay",
      at: options.at,
    });
    return result.decisions[0]!;
  };
  return { projectId: project.id, ids: { durable, dryRun, expiring, honest, longAgo }, ask, old };
}

describe("replaying the gate's recorded decisions under a proposed policy", () => {
  let p: Awaited<ReturnType<typeof projectWithSpans>>;

  beforeAll(async () => {
    p = await projectWithSpans("replay");
    // What the gate decided, as recorded: the cells the proposals below move.
    expect(await p.ask(p.ids.durable)).toMatchObject({
      verdict: "RECLAIM",
      cell: { class: "SIDE_EFFECTING", provenance: "DURABLE" },
    });
    expect(await p.ask(p.ids.expiring)).toMatchObject({
      verdict: "REFUSE",
      cell: { class: "STRUCTURED", provenance: "EXPIRING" },
    });
    expect(await p.ask(p.ids.honest, { honest: true })).toMatchObject({
      verdict: "RECLAIM_HONEST",
      cell: { class: "STRUCTURED", provenance: "EXPIRING" },
    });
    // Not replayed: a dry run (a durable reclamation a shorter TTL would refuse), a decision older than 30 days.
    expect(await p.ask(p.ids.dryRun, { dryRun: true })).toMatchObject({ verdict: "RECLAIM", cell: { provenance: "DURABLE" } });
    expect(await p.ask(p.ids.longAgo, { at: new Date(p.old.getTime() + DAY_MS) })).toMatchObject({
      verdict: "RECLAIM",
      cell: { class: "SIDE_EFFECTING", provenance: "DURABLE" },
    });
    // Another project's decisions in the same cells are its own.
    const other = await projectWithSpans("replay-other");
    await other.ask(other.ids.durable);
    await other.ask(other.ids.expiring);
  });

  it("the current policy replays every recorded decision as it was made", async () => {
    const replay = await replayDecisions(p.projectId, POLICY, POLICY, new Date());
    expect(replay).toEqual({ decisions: 3, recorded: 1, current: 1, proposed: 1, gained: 0, lost: 0 });
  });

  it("a shorter side-effecting TTL moves the durable reclamation to EXPIRING: one refusal gained", async () => {
    const sim = await simulateRetention(p.projectId, { ttlDays: { SIDE_EFFECTING: 100 } }, 30);
    expect(sim.refusals).toEqual({ decisions: 3, recorded: 1, current: 1, proposed: 2, gained: 1, lost: 0 });
    expect([sim.current.refusals, sim.proposed.refusals]).toEqual([1, 2]);
  });

  it("a TTL shortened but still past the horizon moves nothing", async () => {
    const sim = await simulateRetention(p.projectId, { ttlDays: { SIDE_EFFECTING: 500 } }, 30);
    expect(sim.refusals).toMatchObject({ proposed: 1, gained: 0, lost: 0 });
  });

  it("a shorter evidence horizon moves the expiring refusal to DURABLE: one refusal lost", async () => {
    const sim = await simulateRetention(p.projectId, { evidenceHorizonDays: 90 }, 30);
    expect(sim.refusals).toMatchObject({ current: 1, proposed: 0, gained: 0, lost: 1 });
  });

  it("both at once: one gained, one lost; the honest reclamation stays honest", async () => {
    const sim = await simulateRetention(p.projectId, { ttlDays: { SIDE_EFFECTING: 100, STRUCTURED: 400 } }, 30);
    expect(sim.refusals).toEqual({ decisions: 3, recorded: 1, current: 1, proposed: 1, gained: 1, lost: 1 });
  });

  it("a longer structured TTL loses the refusal, and the gate then reclaims that span under it", async () => {
    const sim = await simulateRetention(p.projectId, { ttlDays: { STRUCTURED: 400 } }, 30);
    expect(sim.refusals).toEqual({ decisions: 3, recorded: 1, current: 1, proposed: 0, gained: 0, lost: 1 });
    // The replay's answer is the gate's: saved, the policy lets the refused span go.
    await savePolicyVersion(
      p.projectId,
      { policy: { ...POLICY, ttlDays: { ...POLICY.ttlDays, STRUCTURED: 400 } }, expectedVersion: 0 },
      TEST_ACTOR,
    );
    expect(await p.ask(p.ids.expiring, { dryRun: true })).toMatchObject({
      verdict: "RECLAIM",
      cell: { class: "STRUCTURED", provenance: "DURABLE" },
    });
  });
});

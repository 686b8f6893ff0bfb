/**
 * The maintenance round's upkeep of the OTLP receiver's raw spans: quiet conversations are
 * forgotten whole, running ones kept; spans held for an ancestor that never comes are mapped.
 */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { runMaintenance } from "@/lib/server/background";
import { receiveOtlpTraces } from "./otlp-ingest";
import { chat, hex, request, tool } from "./otlp-test-spans";

const DAY_MS = 86_400_000;
async function receivedDaysAgo(projectId: string, traceId: string, days: number, now: Date) {
  await db().otlpSpan.updateMany({
    where: { projectId, traceId },
    data: { receivedAt: new Date(now.getTime() - days * DAY_MS) },
  });
}

const rowsOf = async (projectId: string) =>
  (await db().otlpSpan.findMany({ where: { projectId }, select: { traceId: true } })).map((r) => r.traceId).sort();

describe("forgetting raw OTLP spans", () => {
  it("deletes a conversation quiet for the narrative TTL, whole; keeps one with any recent trace; the sessions stay", async () => {
    const project = await makeTestProject("otlp-forget");
    const now = new Date();
    const options = { requester: "test", now };
    const [quiet, quietSecond, running, runningNew, bare] = [hex(16), hex(16), hex(16), hex(16), hex(16)];
    const quietConversation = `quiet-${hex(4)}`;
    const runningConversation = `running-${hex(4)}`;
    // The quiet conversation spans two traces; the running one has an old trace and a new one.
    await receiveOtlpTraces(project.id, request(chat(quiet, quietConversation, "first", now)), options);
    await receiveOtlpTraces(project.id, request(chat(quietSecond, quietConversation, "second", now)), options);
    await receiveOtlpTraces(project.id, request(chat(running, runningConversation, "long ago", now)), options);
    await receiveOtlpTraces(project.id, request(chat(runningNew, runningConversation, "today", now)), options);
    // A trace whose spans name no conversation at all: its own group.
    await receiveOtlpTraces(project.id, request(chat(bare, "", "no conversation", now)), options);
    const ttl = DEFAULT_POLICY.ttlDays.NARRATIVE;
    await receivedDaysAgo(project.id, quiet, ttl + 5, now);
    await receivedDaysAgo(project.id, quietSecond, ttl + 1, now);
    await receivedDaysAgo(project.id, running, ttl + 5, now);
    await receivedDaysAgo(project.id, runningNew, 2, now);
    await receivedDaysAgo(project.id, bare, ttl + 1, now);
    const sessionsBefore = await db().session.count({ where: { projectId: project.id } });
    const spansBefore = await db().span.count({ where: { session: { projectId: project.id } } });

    const result = await runMaintenance(now);

    expect(result.otlpSpansForgotten).toBeGreaterThanOrEqual(3);
    expect(await rowsOf(project.id)).toEqual([running, runningNew].sort());
    expect(await db().session.count({ where: { projectId: project.id } })).toBe(sessionsBefore);
    expect(await db().span.count({ where: { session: { projectId: project.id } } })).toBe(spansBefore);
  });

  it("counts quiet from the project's own narrative TTL, and a TTL under a day as a day", async () => {
    const long = await makeTestProject("otlp-forget-long", {
      ...DEFAULT_POLICY,
      ttlDays: { ...DEFAULT_POLICY.ttlDays, NARRATIVE: 90 },
    });
    const none = await makeTestProject("otlp-forget-zero", {
      ...DEFAULT_POLICY,
      ttlDays: { ...DEFAULT_POLICY.ttlDays, NARRATIVE: 0 },
    });
    const now = new Date();
    const [a, b, c] = [hex(16), hex(16), hex(16)];
    await receiveOtlpTraces(long.id, request(chat(a, `c-${hex(4)}`, "kept for 90 days", now)), { requester: "test", now });
    await receivedDaysAgo(long.id, a, 40, now);
    await receiveOtlpTraces(none.id, request(chat(b, `c-${hex(4)}`, "an hour ago", now)), { requester: "test", now });
    await receivedDaysAgo(none.id, b, 1 / 24, now);
    await receiveOtlpTraces(none.id, request(chat(c, `c-${hex(4)}`, "two days ago", now)), { requester: "test", now });
    await receivedDaysAgo(none.id, c, 2, now);

    await runMaintenance(now);

    expect(await rowsOf(long.id)).toEqual([a]);
    expect(await rowsOf(none.id)).toEqual([b]);
  });
});

describe("spans held for an ancestor that never comes", () => {
  it("are mapped by the maintenance round once their wait is over, once", async () => {
    const project = await makeTestProject("otlp-held");
    const now = new Date();
    const trace = hex(16);
    const conversation = `held-${hex(4)}`;
    const agent = hex(8); // the invoke_agent span: never sent (the exporter died before it ended)
    const receipt = await receiveOtlpTraces(
      project.id,
      request(chat(trace, conversation, "Set the log level", now, agent), tool(trace, agent, "/etc/app/conf.yaml", now)),
      { requester: "test", now },
    );
    expect(receipt.held).toBe(2);
    expect(await db().session.count({ where: { projectId: project.id } })).toBe(0);

    // Within the wait nothing is released. (The round's counts cover every project of the shared
    // test database: this test reads its own project's rows.)
    await runMaintenance(new Date(now.getTime() + 1_000));
    expect(await db().session.count({ where: { projectId: project.id } })).toBe(0);
    const later = new Date(now.getTime() + 2 * 60_000);
    const released = await runMaintenance(later);

    const session = await db().session.findFirstOrThrow({ where: { projectId: project.id }, include: { spans: true } });
    // The tool span inherits the trace's one conversation.
    expect(session.externalId).toBe(conversation);
    expect(session.spans.map((s) => s.kind).sort()).toEqual(["MESSAGE", "TOOL_CALL", "TOOL_RESULT"]);
    expect(released.otlpHeldSpansReleased).toBeGreaterThanOrEqual(session.spans.length);
    // Mapped once: the next round adds nothing.
    await runMaintenance(new Date(later.getTime() + 60_000));
    expect(await db().span.count({ where: { sessionId: session.id } })).toBe(session.spans.length);
  });
});

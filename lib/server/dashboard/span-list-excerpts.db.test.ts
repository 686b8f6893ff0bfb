import { describe, expect, it } from "vitest";
import { DAY_MS, DEFAULT_POLICY } from "@/lib/evidence/policy";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { candidateSummaryFor } from "@/lib/server/gate/candidate-summary";
import { reclaim } from "@/lib/server/gate/reclaim";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { sweep } from "@/lib/server/retention/sweeper";
import { getSessionOverview } from "./session-detail";
import { LIST_EXCERPT_BYTES } from "./span-list-excerpts";

const utf8 = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | null | undefined) => (b ? new TextDecoder().decode(b) : null);

describe("what the session page's span list says of each span", () => {
  it("reads a prefix of each held original, and for a lost span what its summary kept and dropped", async () => {
    const project = await makeTestProject("says", {
      ...DEFAULT_POLICY,
      ttlDays: { NARRATIVE: 1, STRUCTURED: 1, SIDE_EFFECTING: 1 },
    });
    const { session } = await upsertSession(project.id, { externalId: "says", runtime: "claude-code" });
    const long = `${"x".repeat(200_000)} the end`;
    const old = new Date(Date.now() - 10 * DAY_MS);
    // The write was received ten days ago: its original's one-day TTL has passed.
    const [write] = await appendSpans(
      project.id,
      session.id,
      [
        {
          seq: 1,
          kind: "TOOL_CALL",
          toolName: "write_file",
          occurredAt: old,
          body: utf8('{"path":"/etc/app/conf.yaml","content":"listen: 8443"}'),
        },
      ],
      { now: old },
    );
    const [big, note] = await appendSpans(project.id, session.id, [
      { seq: 0, kind: "MESSAGE", occurredAt: old, body: utf8(long) },
      { seq: 2, kind: "MESSAGE", occurredAt: old, body: utf8('<script>alert("hi")</script>') },
    ]);
    const summary = await candidateSummaryFor(session.id, [write!.id], "The agent wrote the app's configuration.", {
      pointers: true,
      honest: true,
    });
    const reclaimed = await reclaim({
      projectId: project.id,
      sessionId: session.id,
      selection: { fromSeq: 1, toSeq: 1 },
      summary,
      dryRun: false,
      requester: "test",
    });
    expect(reclaimed.decisions.map((d) => d.verdict)).toEqual(["RECLAIM_HONEST"]);
    await sweep();

    const { spans } = await getSessionOverview(project.id, session.id);
    const says = new Map(spans.map((s) => [s.id, s.says]));
    // A large original: only the prefix is read, with the whole length.
    expect(says.get(big!.id)).toMatchObject({ byteLength: utf8(long).byteLength, replacedBy: null, toolName: null });
    expect(says.get(big!.id)!.head!.byteLength).toBe(LIST_EXCERPT_BYTES);
    // Markup comes back as the bytes it is (the component renders it as text).
    expect(text(says.get(note!.id)!.head)).toBe('<script>alert("hi")</script>');
    // The swept write: no bytes, the summary that replaced it and what that summary's text lacks.
    const lost = says.get(write!.id)!;
    expect(lost).toMatchObject({ head: null, byteLength: null, toolName: "write_file" });
    expect(lost.deleteReason).toBeTruthy();
    expect(text(lost.replacedBy!.head)).toContain("The agent wrote the app's configuration.");
    expect(lost.replacedBy!.dropped!.map((d) => d.kind)).toContain("PATH");
    expect(spans.find((s) => s.id === write!.id)!.provenance).toBe("LOST");
  });
});

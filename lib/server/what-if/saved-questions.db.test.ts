import { beforeAll, describe, expect, it } from "vitest";
import { POST as reclaim } from "@/app/api/v1/reclamations/route";
import { POST as createSession } from "@/app/api/v1/sessions/route";
import { POST as appendSpans } from "@/app/api/v1/sessions/[id]/spans/route";
import { callRoute } from "@/lib/fuzz/call";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject, TEST_ACTOR } from "@/lib/server/admin/test-project";
import { askEvidenceQuestion, deleteSavedQuestion, saveQuestion } from "@/lib/server/questions";
import { simulateRetention } from "./simulate";

const DAY = 86_400_000;
const write = JSON.stringify({ path: "/etc/app/conf.yaml", content: "debug: true" });

describe("the retention what-if judges saved questions beside the canned ones", () => {
  let projectId: string;
  let sessionId: string;
  let writeId: string;
  let touched: string;
  let www: string;

  beforeAll(async () => {
    projectId = (await makeTestProject("what-if-saved")).id;
    const key = (await createApiKey(projectId, "runtime", "OPERATOR", TEST_ACTOR)).key;
    sessionId = (await callRoute(createSession, { key, body: { externalId: "run", runtime: "claude-code", cwd: "/srv/app" } }))
      .json.id;
    const now = new Date().toISOString();
    const spans = await callRoute(appendSpans, {
      key,
      params: { id: sessionId },
      body: {
        spans: [
          { seq: 0, kind: "MESSAGE", role: "user", occurredAt: now, body: "Turn on debug logging." },
          { seq: 1, kind: "TOOL_CALL", toolName: "write_file", toolInput: JSON.parse(write), occurredAt: now, body: write },
        ],
      },
    });
    const span = spans.json.spans[1];
    expect(span.class).toBe("SIDE_EFFECTING");
    writeId = span.id;
    const reclaimed = await callRoute(reclaim, {
      key,
      body: {
        sessionId,
        spanIds: [writeId],
        summary: {
          text: "The agent configured the application's YAML configuration.",
          pointers: [{ spanId: writeId, byteStart: 0, byteEnd: Buffer.byteLength(write), sha256: span.sha256 }],
        },
      },
    });
    expect(reclaimed.json.results[0].verdict).toBe("RECLAIM");
    touched = (
      await saveQuestion(projectId, { title: "Touched the app config?", predicate: { valuePrefixes: ["/etc/app/"] } }, TEST_ACTOR)
    ).id;
    www = (
      await saveQuestion(
        projectId,
        { title: "Wrote under /var/www?", predicate: { valuePrefixes: ["/var/www/"], effectKinds: ["FILE_WRITE"] } },
        TEST_ACTOR,
      )
    ).id;
  });

  it("a side-effecting TTL of 1 day turns a saved YES and a saved NO into INSUFFICIENT_EVIDENCE, naming the write", async () => {
    // The answers today, asked as the Evidence page asks a predicate.
    const yes = await askEvidenceQuestion({ projectId, question: { predicate: { valuePrefixes: ["/etc/app/"] } } });
    expect(yes.answer).toBe("YES");
    const no = await askEvidenceQuestion({
      projectId,
      question: { predicate: { valuePrefixes: ["/var/www/"], effectKinds: ["FILE_WRITE"] } },
    });
    expect(no.answer).toBe("NO");

    const started = Date.now();
    const sim = await simulateRetention(projectId, { ttlDays: { SIDE_EFFECTING: 1 } }, 30);
    const saved = sim.proposed.questionsAffected.filter((q) => q.questionId === touched || q.questionId === www);
    expect(saved.map((q) => [q.questionTitle, q.from, q.spanIds])).toEqual(
      expect.arrayContaining([
        ["Touched the app config?", "YES", [writeId]],
        ["Wrote under /var/www?", "NO", [writeId]],
      ]),
    );
    expect(saved).toHaveLength(2);
    for (const q of saved) {
      expect(q).toMatchObject({ sessionId, to: "INSUFFICIENT_EVIDENCE" });
      expect(new Date(q.at).getTime()).toBeLessThanOrEqual(started + 2 * DAY);
    }
    // The canned system-config question is judged as before, beside them.
    expect(sim.proposed.questionsAffected.some((q) => q.questionId === "modified-system-config")).toBe(true);
    expect(sim.current.questionsAffected).toEqual([]);
  });

  it("the current policy changes no saved answer; a deleted question is no longer judged", async () => {
    const unchanged = await simulateRetention(projectId, {}, 90);
    expect(unchanged.proposed.questionsAffected).toEqual([]);

    await deleteSavedQuestion(projectId, www, TEST_ACTOR);
    const sim = await simulateRetention(projectId, { ttlDays: { SIDE_EFFECTING: 1 } }, 30);
    const ids = sim.proposed.questionsAffected.map((q) => q.questionId);
    expect(ids).toContain(touched);
    expect(ids).not.toContain(www);
  });
});

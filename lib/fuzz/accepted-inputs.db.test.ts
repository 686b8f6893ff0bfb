/**
 * No accepted input can break later reads: random span batches the API accepts (bodies with NUL,
 * invalid UTF-8 and lone surrogates, tool input Postgres JSON cannot hold, the largest seq, the
 * first and last dates, 32-bit exit codes, nesting at its limit) are ingested, then every canned
 * question is asked over the session and over the whole project, and the session's spans and
 * originals are read back: nothing answers 5xx.
 */
import "./next-runtime";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as askQuestion } from "@/app/api/v1/evidence/query/route";
import { POST as createSession } from "@/app/api/v1/sessions/route";
import { GET as listSpans, POST as appendSpans } from "@/app/api/v1/sessions/[id]/spans/route";
import { GET as readOriginal } from "@/app/api/v1/spans/[id]/original/route";
import { LIMITS } from "@/lib/api/schemas";
import { CANNED_QUESTION_IDS } from "@/lib/evidence/questions";
import { callRoute } from "./call";
import { makeFixture } from "./fuzz";

const nested = (depth: number): unknown => (depth === 0 ? "leaf\u0000" : { d: nested(depth - 1) });

const text = fc.oneof(
  fc.string({ unit: "binary", maxLength: 200 }),
  fc.constantFrom(
    "write_file /etc/app/conf.yaml",
    "sudo apt-get install nginx\u0000",
    "rm -rf ~/.ssh/\ud800",
    "curl -X POST https://api.example.com/v1/x",
    "did not modify /etc/hosts",
    "\udfff/usr/lib/\u0000x",
  ),
);
const toolInput = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.record({ command: text, path: text }),
  fc.constant(nested(LIMITS.maxToolInputDepth - 1)),
  fc.constant({ $custodianJsonText: "{}" }),
  fc.dictionary(text, text, { maxKeys: 3 }),
);
const date = fc.oneof(
  fc.constantFrom(LIMITS.minDate, LIMITS.maxDate, "9999-12-31T23:59:59Z", "1970-01-01T00:00:00Z", "2026-11-30T10:00:00+14:00"),
  fc.date({ min: new Date(LIMITS.minDate), max: new Date(LIMITS.maxDate), noInvalidDate: true }).map((d) => d.toISOString()),
);
const span = fc.record(
  {
    seq: fc.oneof(fc.integer({ min: 0, max: 50 }), fc.constantFrom(LIMITS.maxSeq, LIMITS.maxSeq - 1)),
    kind: fc.constantFrom("MESSAGE", "TOOL_CALL", "TOOL_RESULT", "SUMMARY"),
    role: fc.constantFrom("user", "assistant", "tool"),
    toolName: fc.constantFrom("Bash", "write_file", "Edit", "Read", "mcp__x__y", "\u00e9"),
    toolInput,
    exitCode: fc.oneof(fc.integer({ min: -2, max: 255 }), fc.constantFrom(LIMITS.minExitCode, LIMITS.maxExitCode)),
    outcome: fc.constantFrom("SUCCEEDED", "FAILED", "DECLINED", "NOT_RUN", "UNKNOWN"),
    cwd: fc.constantFrom("/home/dev/app", "/", "~"),
    occurredAt: date,
    body: fc.oneof(
      text.map((body) => ({ body })),
      fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ body: Buffer.from(bytes).toString("base64"), bodyEncoding: "base64" })),
    ),
  },
  { requiredKeys: ["seq", "kind", "occurredAt", "body"] },
);

describe("accepted inputs never break later reads", () => {
  let key: string;
  beforeAll(async () => {
    key = (await makeFixture("accepted")).keys.operator;
  });

  it("ingest random accepted spans, then every canned question answers without a 5xx", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(span, { minLength: 1, maxLength: 12 }), async (spans) => {
        const session = await callRoute(createSession, { key, body: { externalId: `accepted-${run++}`, runtime: "fuzz" } });
        expect(session.status).toBe(200);
        const id = session.json.id as string;
        const batch = spans.map(({ body, ...rest }) => ({ ...rest, ...body }));
        const appended = await callRoute(appendSpans, { key, params: { id }, body: { spans: batch } });
        // Accepted, or refused as a whole for contradicting itself (one seq, two bodies): never a 5xx.
        expect([200, 422], appended.text).toContain(appended.status);
        for (const canned of CANNED_QUESTION_IDS) {
          for (const scope of [{ sessionIds: [id] }, {}]) {
            const answer = await callRoute(askQuestion, { key, body: { question: { canned }, scope } });
            expect(answer.status, `${canned}: ${answer.text.slice(0, 300)}`).toBe(200);
          }
        }
        const listed = await callRoute(listSpans, { key, method: "GET", params: { id }, path: `/api/v1/sessions/${id}/spans` });
        expect(listed.status, listed.text.slice(0, 300)).toBe(200);
        for (const s of appended.status === 200 ? appended.json.spans : []) {
          const original = await callRoute(readOriginal, { key, method: "GET", params: { id: s.id } });
          expect(original.status).toBe(200);
        }
      }),
      {
        numRuns: Number(process.env.CUSTODIAN_FUZZ_RUNS ?? 25),
        // A fixed seed, as the other fuzz suites: the suite passes or fails the same way on every
        // run; CUSTODIAN_FUZZ_SEED (with CUSTODIAN_FUZZ_RUNS) explores further.
        seed: Number(process.env.CUSTODIAN_FUZZ_SEED ?? 1),
        // Found by this property: a class reason quoting a command with NUL could not go into jsonb.
        examples: [
          [
            [
              {
                seq: 2000000000,
                kind: "TOOL_CALL",
                occurredAt: "0001-01-01T00:00:00.000Z",
                body: { body: "sudo apt-get install nginx\u0000" },
              },
              { seq: 0, kind: "MESSAGE", occurredAt: "1970-01-01T00:00:00.000Z", body: { body: "", bodyEncoding: "base64" } },
            ],
          ],
        ],
      },
    );
  }, 600_000);
});

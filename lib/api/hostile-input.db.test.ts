/**
 * Regression tests for hostile input at the API's edge (issue "Hostile input and faults"): each
 * case answered 500 before its fix, and some broke the project for good.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { POST as askQuestion } from "@/app/api/v1/evidence/query/route";
import { POST as evaluateGate } from "@/app/api/v1/gate/evaluate/route";
import { POST as createSession } from "@/app/api/v1/sessions/route";
import { POST as appendSpans } from "@/app/api/v1/sessions/[id]/spans/route";
import { GET as readOriginal } from "@/app/api/v1/spans/[id]/original/route";
import { db } from "@/lib/db/client";
import { CANNED_QUESTION_IDS } from "@/lib/evidence/questions";
import { callRoute } from "@/lib/fuzz/call";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { decodeStoredToolInput } from "@/lib/server/ingest";
import { LIMITS } from "./schemas";

const at = "2026-11-30T10:00:00Z";
const span = (seq: number, extra: Record<string, unknown> = {}) => ({
  seq,
  kind: "TOOL_CALL",
  toolName: "Bash",
  toolInput: { command: "sudo apt-get install nginx" },
  occurredAt: at,
  body: '{"command":"sudo apt-get install nginx"}',
  ...extra,
});

describe("hostile input", () => {
  let key: string;
  let sessionId: string;

  const newSession = async (externalId: string) => {
    const created = await callRoute(createSession, { key, body: { externalId, runtime: "claude-code", cwd: "/home/dev/app" } });
    expect(created.status).toBe(200);
    return created.json.id as string;
  };
  const append = (id: string, spans: unknown[]) => callRoute(appendSpans, { key, params: { id }, body: { spans } });
  const ask = (body: unknown) => callRoute(askQuestion, { key, body });
  const askEveryCanned = async (sessionIds?: string[]) => {
    const statuses = new Set<number>();
    for (const canned of CANNED_QUESTION_IDS) {
      const answer = await ask({ question: { canned }, ...(sessionIds ? { scope: { sessionIds } } : {}) });
      statuses.add(answer.status);
    }
    return [...statuses];
  };

  beforeAll(async () => {
    const project = await makeTestProject("hostile");
    key = (await createApiKey(project.id, "runtime", "OPERATOR", { type: "SYSTEM", label: "test" })).key;
    sessionId = await newSession("hostile-1");
    expect((await append(sessionId, [span(0)])).status).toBe(200);
  });

  describe("user patterns (finding 2)", () => {
    it("a catastrophic pattern over a long value answers", async () => {
      const long = `/tmp/${"a".repeat(50_000)}!`;
      const id = await newSession("redos");
      expect(
        (await append(id, [span(0, { toolName: "write_file", toolInput: { path: long }, body: JSON.stringify({ path: long }) })]))
          .status,
      ).toBe(200);
      for (const predicate of [
        { valuePattern: "^/tmp/(a+)+$" },
        { commandPattern: "^(a|aa)+$" },
        { valuePattern: "(\\w+\\s?)*$" },
      ]) {
        // That it answers at all is the proof: a backtracking matcher would take about 2^50,000 steps
        // over this value, far past the test's limit. (A fixed budget of seconds here failed only
        // when the machine was busy; the matcher's linear time is measured in patterns.test.ts.)
        const answer = await ask({ question: { predicate }, scope: { sessionIds: [id] } });
        expect(answer.status, JSON.stringify(predicate)).toBe(200);
      }
    });

    it("backreferences and lookaround are a 422 naming the field", async () => {
      for (const [predicate, field] of [
        [{ valuePattern: "(a)\\1" }, "question.predicate.valuePattern"],
        [{ commandPattern: "(?=sudo)s" }, "question.predicate.commandPattern"],
        [{ valuePattern: "(?<!x)y" }, "question.predicate.valuePattern"],
      ] as const) {
        const answer = await ask({ question: { predicate } });
        expect(answer.status).toBe(422);
        expect(answer.json.error.fields.map((f: { path: string }) => f.path)).toEqual([field]);
      }
    });

    it("case-insensitive narrowing in SQL finds what RE2 folds: LONG S is s", async () => {
      const id = await newSession("fold");
      const command = "\u017fudo reboot";
      expect((await append(id, [span(0, { toolInput: { command }, body: JSON.stringify({ command }) })])).status).toBe(200);
      const answer = await ask({ question: { predicate: { commandPattern: "(?:sudo)" } }, scope: { sessionIds: [id] } });
      expect(answer.status).toBe(200);
      expect(answer.json.answer).toBe("YES");
    });
  });

  describe("seq (finding 3)", () => {
    it("the largest accepted seq leaves every question answerable; one past it is a 422 naming the field", async () => {
      const id = await newSession("seq-max");
      const accepted = await append(id, [span(0), span(LIMITS.maxSeq)]);
      expect(accepted.status).toBe(200);
      expect(await askEveryCanned([id])).toEqual([200]);
      expect(await askEveryCanned()).toEqual([200]);
      for (const seq of [LIMITS.maxSeq + 1, 2_147_483_647, -1, 1.5, 2 ** 53]) {
        const refused = await append(id, [span(seq)]);
        expect(refused.status, String(seq)).toBe(422);
        expect(refused.json.error.fields[0].path).toBe("spans.0.seq");
      }
      expect(await askEveryCanned()).toEqual([200]);
    });
  });

  describe("base64 bodies (finding 4)", () => {
    it("decodes a body up to the span limit, and refuses one past it with 413", async () => {
      const bytes = Buffer.alloc(LIMITS.maxSpanBytes, 0x61);
      bytes[17] = 0;
      bytes[18] = 0xff;
      const id = await newSession("base64");
      const stored = await append(id, [{ ...span(0), body: bytes.toString("base64"), bodyEncoding: "base64" }]);
      expect(stored.status).toBe(200);
      const original = await callRoute(readOriginal, { key, method: "GET", params: { id: stored.json.spans[0].id } });
      expect(original.status).toBe(200);
      const over = await append(id, [
        { ...span(1), body: Buffer.alloc(LIMITS.maxSpanBytes + 3, 1).toString("base64"), bodyEncoding: "base64" },
      ]);
      expect([over.status, over.json.error.fields[0].path]).toEqual([413, "spans.0.body"]);
    });

    it("refuses malformed base64 with a field error, wrapped or not", async () => {
      const wrapped = `${Buffer.from("hello world, hello world")
        .toString("base64")
        .replace(/(.{8})/g, "$1\n")}`;
      expect((await append(sessionId, [{ ...span(5), body: wrapped, bodyEncoding: "base64" }])).status).toBe(200);
      for (const body of ["abc", "ab=c", "a===", "@@@@", "YQ==YQ=="]) {
        const refused = await append(sessionId, [{ ...span(6), body, bodyEncoding: "base64" }]);
        expect([refused.status, refused.json.error.fields[0].path], body).toEqual([422, "spans.0.body"]);
      }
    });
  });

  describe("NUL and lone surrogates (finding 5)", () => {
    it("tool input Postgres JSON cannot hold is stored exactly", async () => {
      const id = await newSession("nul");
      const inputs = [
        { command: "printf 'a\u0000b' > /etc/x" },
        { "ke\u0000y": ["\ud800", "x\udfff", "\ud83d\ude00"] },
        { $custodianJsonText: "looks like our escape" },
      ];
      const result = await append(
        id,
        inputs.map((toolInput, seq) => span(seq, { toolInput, body: "tool input as sent" })),
      );
      expect(result.status, result.text).toBe(200);
      const rows = await db().span.findMany({ where: { sessionId: id }, orderBy: { seq: "asc" } });
      expect(rows.map((r) => decodeStoredToolInput(r.toolInput))).toEqual(inputs);
    });

    it("a lone surrogate in a text body is stored as its bytes (WTF-8) and answers every question", async () => {
      const id = await newSession("surrogate");
      const result = await append(id, [{ ...span(0), body: "rm -rf /etc/\ud800 \u0000done" }]);
      expect(result.status).toBe(200);
      const row = await db().spanOriginal.findFirst({ where: { spanId: result.json.spans[0].id } });
      expect(Buffer.from(row!.bytes!).toString("hex")).toBe(
        Buffer.concat([Buffer.from("rm -rf /etc/"), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from(" \u0000done")]).toString("hex"),
      );
      expect(await askEveryCanned([id])).toEqual([200]);
    });

    it("a command holding NUL is classified, explained and still found by the questions (no false NO)", async () => {
      const id = await newSession("nul-command");
      const body = "sudo apt-get install nginx\u0000 && rm -rf /etc/app\u0000x";
      const result = await append(id, [span(0, { toolInput: { command: body }, body })]);
      expect(result.status, result.text).toBe(200);
      const row = await db().span.findFirst({ where: { sessionId: id } });
      expect(row!.class).toBe("SIDE_EFFECTING");
      expect(JSON.stringify(row!.classReasons)).toContain("nginx\\\\u0000");
      for (const canned of ["installed-or-removed-packages", "deleted-files", "modified-system-config"]) {
        const answer = await ask({ question: { canned }, scope: { sessionIds: [id] } });
        expect([canned, answer.json.answer]).toEqual([canned, "YES"]);
      }
    });

    it("identifiers and labels that Postgres text cannot hold are a 422 naming the field", async () => {
      for (const [extra, field] of [
        [{ role: "a\u0000" }, "spans.0.role"],
        [{ toolName: "x\ud800" }, "spans.0.toolName"],
        [{ cwd: "/\udc00" }, "spans.0.cwd"],
      ] as const) {
        const refused = await append(sessionId, [span(7, extra)]);
        expect([refused.status, refused.json.error.fields[0].path]).toEqual([422, field]);
      }
      const session = await callRoute(createSession, { key, body: { externalId: "x\ud800", runtime: "r" } });
      expect([session.status, session.json.error.fields[0].path]).toEqual([422, "externalId"]);
    });
  });

  describe("ranges (finding 6)", () => {
    it("exit codes outside 32 bits are a 422 naming the field", async () => {
      for (const exitCode of [2 ** 31, -(2 ** 31) - 1, 1e300]) {
        const refused = await append(sessionId, [span(8, { exitCode })]);
        expect([refused.status, refused.json.error.fields[0].path]).toEqual([422, "spans.0.exitCode"]);
      }
      expect((await append(sessionId, [span(8, { exitCode: -(2 ** 31) })])).status).toBe(200);
    });

    it("the last representable date is accepted everywhere, and a later one is a 422", async () => {
      const last = "9999-12-31T23:59:59Z";
      const id = await newSession("dates");
      expect((await append(id, [span(0, { occurredAt: last })])).status).toBe(200);
      expect(await askEveryCanned([id])).toEqual([200]);
      const scoped = await ask({
        question: { canned: CANNED_QUESTION_IDS[0] },
        scope: { from: "0001-01-01T00:00:00Z", to: last },
      });
      expect(scoped.status).toBe(200);
      const session = await callRoute(createSession, { key, body: { externalId: "late", runtime: "r", startedAt: last } });
      expect(session.status).toBe(200);
      const gate = await callRoute(evaluateGate, {
        key,
        body: {
          spans: [
            {
              id: "a",
              class: "STRUCTURED",
              hasPointer: true,
              originalRetrievable: true,
              originalExpiresAt: last,
              occurredAt: last,
            },
          ],
        },
      });
      expect(gate.status).toBe(200);
      for (const occurredAt of ["+010000-01-01T00:00:00Z", "275760-09-13T00:00:00Z"]) {
        const refused = await append(id, [span(1, { occurredAt })]);
        expect([refused.status, refused.json.error.fields[0].path]).toEqual([422, "spans.0.occurredAt"]);
      }
    });

    it("deeply nested JSON is a 422 naming the depth, not a crash", async () => {
      const nested = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
      const deep = nested(1_000_000);
      const body = `{"spans":[{"seq":9,"kind":"TOOL_CALL","occurredAt":"${at}","body":"x","toolInput":${deep}}]}`;
      let started = performance.now();
      const refused = await callRoute(appendSpans, { key, params: { id: sessionId }, raw: body });
      const refusing = performance.now() - started;
      expect([refused.status, refused.json.error.fields[0].path]).toEqual([422, "(body)"]);
      const quoted = `{"spans":[{"seq":9,"kind":"TOOL_CALL","occurredAt":"${at}","body":"${deep}"}]}`;
      started = performance.now();
      expect((await callRoute(appendSpans, { key, params: { id: sessionId }, raw: quoted })).status).toBe(200);
      // Refused before it is parsed: in less time than the same two megabytes taken as a body
      // (parsed, hashed, stored), measured side by side so that a busy machine slows both alike.
      expect(refusing).toBeLessThan(performance.now() - started);
      const tool = `{"spans":[{"seq":10,"kind":"TOOL_CALL","occurredAt":"${at}","body":"x","toolInput":${nested(LIMITS.maxToolInputDepth + 1)}}]}`;
      const toolRefused = await callRoute(appendSpans, { key, params: { id: sessionId }, raw: tool });
      expect([toolRefused.status, toolRefused.json.error.fields[0].path]).toEqual([422, "spans.0.toolInput"]);
      const fits = `{"spans":[{"seq":10,"kind":"TOOL_CALL","occurredAt":"${at}","body":"x","toolInput":${nested(LIMITS.maxToolInputDepth)}}]}`;
      expect((await callRoute(appendSpans, { key, params: { id: sessionId }, raw: fits })).status).toBe(200);
      const gate = await callRoute(evaluateGate, {
        key,
        raw: `{"spans":[{"id":"a","content":"x","hasPointer":true,"originalRetrievable":true,"toolInput":${deep}}]}`,
      });
      expect(gate.status).toBe(422);
    });

    it("NUL in predicate strings is a 422 naming the field", async () => {
      for (const [predicate, field] of [
        [{ valuePrefixes: ["/etc/\u0000"] }, "question.predicate.valuePrefixes.0"],
        [{ excludePrefixes: ["\u0000"] }, "question.predicate.excludePrefixes.0"],
        [{ toolNames: ["Ba\u0000sh"] }, "question.predicate.toolNames.0"],
        [{ argNames: ["pa\ud800th"] }, "question.predicate.argNames.0"],
        [{ valuePattern: "a\u0000" }, "question.predicate.valuePattern"],
      ] as const) {
        const answer = await ask({ question: { predicate } });
        expect([answer.status, answer.json.error.fields[0].path], JSON.stringify(predicate)).toEqual([422, field]);
      }
    });

    it("policy numbers in a gate call have ranges", async () => {
      const gate = await callRoute(evaluateGate, {
        key,
        body: {
          spans: [{ id: "a", class: "STRUCTURED", hasPointer: true, originalRetrievable: true, occurredAt: at }],
          policy: { ttlDays: { NARRATIVE: 1e15, STRUCTURED: 1, SIDE_EFFECTING: 1 } },
        },
      });
      expect([gate.status, gate.json.error.fields[0].path]).toEqual([422, "policy.ttlDays.NARRATIVE"]);
    });
  });
});

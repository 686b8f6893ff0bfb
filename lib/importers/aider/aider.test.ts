import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CANNED_QUESTIONS } from "@/lib/evidence/questions";
import { AIDER_IGNORED_RECORDS, parseAider } from "./index";
import { answerOverImport } from "../shared/answer-testkit";
import { readAiderRecords } from "./records";
import { detectFormat, importTranscript } from "../index";
import { effectOn, expectWellFormed, fixture, text, verdictOf } from "../shared/testkit";
import type { ImportedSession, ImportedSpan, ImportResult } from "../shared/types";
import { utf8 } from "../shared/text";

const afi = fixture("aider/afi-core.aider.chat.history.md");
const mono = fixture("aider/monochromatic.aider.chat.history.md");
const edge = fixture("aider/hand-written-edge-cases.aider.chat.history.md");

function calls(result: ImportResult): ImportedSpan[] {
  return result.sessions.flatMap((s) => s.spans.filter((x) => x.kind === "TOOL_CALL"));
}

function callAt(result: ImportResult, line: number, toolName?: string): ImportedSpan {
  const found = calls(result).filter((c) => c.sourceLine === line && (toolName === undefined || c.toolName === toolName));
  expect(found.length).toBeGreaterThan(0);
  return found[0]!;
}

function sessionOf(result: ImportResult, time: string): ImportedSession {
  const s = result.sessions.find((x) => x.externalId.startsWith(`aider:${time}:`));
  if (!s) throw new Error(`no session ${time}`);
  return s;
}

describe("Aider importer: real histories", () => {
  it.each([
    ["afi-core", afi],
    ["monochromatic", mono],
  ])("imports %s by detection with every record accounted for", (_name, bytes) => {
    expect(detectFormat(bytes)).toBe("aider");
    const result = importTranscript(bytes);
    expect(result.format).toBe("aider");
    expectWellFormed(result);
    expect(result.records.skipped).toBe(0);
    expect(result.issues).toEqual([]);
    for (const type of Object.keys(result.records.ignoredByType)) expect(AIDER_IGNORED_RECORDS).toHaveProperty(type);
  });

  it("starts a session at each header, named by its time and content", () => {
    const result = parseAider(afi);
    expect(result.sessions).toHaveLength(9);
    const s = sessionOf(result, "2025-07-15 14:53:34");
    expect(s.startedAt?.toISOString()).toBe("2025-07-15T14:53:34.000Z");
    expect(s.title).toBe("chmod +x ~/AFI_Modular_Repos/*.sh");
    expect(s.externalId).toMatch(/^aider:2025-07-15 14:53:34:[0-9a-f]{32}$/);
    expect(parseAider(afi).sessions.map((x) => x.externalId)).toEqual(result.sessions.map((x) => x.externalId));
  });

  it("pairs a proposed shell block with its prompt and the Running lines", () => {
    const result = parseAider(afi);
    // The reply at line 1164 proposed two commands; the prompt at 1176 answered y; both ran.
    const [add, commit] = calls(result).filter((c) => c.sourceLine === 1164);
    expect(add).toMatchObject({ toolName: "shell", outcome: "UNKNOWN" });
    expect(commit!.toolInput).toEqual({
      command: `git commit -m "refactor: add 'content' field to SignalSchema and update scoring/tests accordingly"`,
    });
    expect(callAt(result, 1184)).toMatchObject({ toolInput: { command: "git push origin main" }, outcome: "UNKNOWN" });
    expect(text(callAt(result, 933))).toBe("rm validators/PoIValidator.ts");
  });

  it("marks shell blocks never prompted as not run", () => {
    const result = parseAider(afi);
    expect(
      calls(result)
        .filter((c) => c.sourceLine === 1389)
        .map((c) => c.outcome),
    ).toEqual(["NOT_RUN", "NOT_RUN"]);
  });

  it("maps applied edits and commits to succeeded calls with their results", () => {
    const result = parseAider(afi);
    const edit = callAt(result, 1005, "edit");
    expect(edit).toMatchObject({ toolInput: { path: "validators/SignalScorer.ts" }, outcome: "SUCCEEDED" });
    const s = result.sessions.find((x) => x.spans.includes(edit))!;
    expect(text(s.spans[s.spans.indexOf(edit) + 1])).toBe("Applied edit to validators/SignalScorer.ts");
    expect(callAt(result, 1006)).toMatchObject({
      toolName: "git_commit",
      toolInput: { sha: "d101abd", message: "feat: add SignalScorer class and remove PoIValidator class" },
      outcome: "SUCCEEDED",
    });
  });

  it("reads an edit-format error: the failed block FAILED, the ones it reports applied SUCCEEDED", () => {
    const result = parseAider(afi);
    const at = calls(result).filter((c) => c.sourceLine === 1066);
    expect(at.map((c) => [c.toolInput, c.outcome])).toEqual([
      [{ path: "cli_hooks/validator_invoker.ts" }, "FAILED"],
      [{ path: "tests/poi_validator.test.ts" }, "SUCCEEDED"],
    ]);
    // The error's unquoted lines belong to its record, not to a reply.
    const records = readAiderRecords(afi);
    expect(records.find((r) => r.line === 1066)).toMatchObject({ kind: "tool", endLine: 1079 });
  });

  it("maps /add's create prompts, including the one that failed", () => {
    const result = parseAider(afi);
    expect(callAt(result, 776)).toMatchObject({ toolName: "create_file", toolInput: { path: "/add" }, outcome: "FAILED" });
  });

  it("maps a declined edit, an /undo and Windows paths in the other history", () => {
    const result = parseAider(mono);
    expect(callAt(result, 565)).toMatchObject({ toolName: "edit", toolInput: { path: "CONVENTIONS.md" }, outcome: "DECLINED" });
    expect(callAt(result, 2576)).toMatchObject({ toolName: "undo", outcome: "SUCCEEDED" });
    expect(callAt(result, 1011, "edit").toolInput).toEqual({ path: "packages\\module\\es\\src\\index.ts" });
  });
});

describe("Aider importer: hand-written edge cases", () => {
  const result = parseAider(edge);

  it("imports with every record accounted for", () => {
    expect(detectFormat(edge)).toBe("aider");
    expectWellFormed(result);
    expect(result.records.skipped).toBe(0);
    expect(result.records.ignoredByType).toEqual({ "version-banner": 2, "token-report": 3, "blank-input": 1 });
  });

  it("declines both commands of a block answered n, with the padded subject read as one record", () => {
    const [install, ufw] = calls(result).filter((c) => c.sourceLine === 10);
    expect(install).toMatchObject({ toolInput: { command: "sudo apt-get install -y nginx" }, outcome: "DECLINED" });
    expect(ufw).toMatchObject({ toolInput: { command: "sudo ufw allow 80" }, outcome: "DECLINED" });
    expect(calls(result).filter((c) => c.sourceLine === 10)[2]).toMatchObject({
      toolInput: { command: "nginx -t" },
      outcome: "NOT_RUN",
    });
  });

  it("maps /run, /test, a dry-run edit, a prompted run, a failed /undo and an unprompted block at the end", () => {
    expect(callAt(result, 28)).toMatchObject({
      toolName: "shell",
      toolInput: { command: "rm -rf /tmp/cache" },
      outcome: "FAILED",
    });
    expect(callAt(result, 31)).toMatchObject({ toolInput: { command: "pytest -q" }, outcome: "FAILED" });
    expect(callAt(result, 45)).toMatchObject({ toolName: "edit", outcome: "NOT_RUN" });
    const restart = callAt(result, 53);
    expect(restart).toMatchObject({ toolInput: { command: "sudo systemctl restart nginx" }, outcome: "UNKNOWN" });
    expect(callAt(result, 62)).toMatchObject({ toolName: "undo", outcome: "FAILED" });
    // The file ends before Aider could ask: not known to be unrun.
    expect(callAt(result, 67)).toMatchObject({ toolInput: { command: "systemctl status nginx" }, outcome: "UNKNOWN" });
    expect(result.sessions.map((s) => s.startedAt?.toISOString())).toEqual([
      "2025-03-04T10:20:30.000Z",
      "2025-03-04T11:00:00.000Z",
    ]);
  });

  it("reads /web's offer to install Playwright as its two commands, declined or run as answered", () => {
    // As Aider 0.85 writes it (aider/scrape.py: the commands, then confirm_ask).
    const offer = (answer: string) =>
      [
        "# aider chat started at 2025-06-01 09:00:00",
        "",
        "#### /web https://example.com/docs  ",
        "",
        "> Scraping https://example.com/docs...  ",
        "> For the best web scraping, install Playwright:",
        "",
        "/usr/bin/python3 -m pip install --upgrade --upgrade-strategy only-if-needed aider-chat[playwright]",
        "/usr/bin/python3 -m playwright install --with-deps chromium",
        "",
        "See https://aider.chat/docs/install/optional.html#enable-playwright for more info.  ",
        `> Install playwright? (Y)es/(N)o [Yes]: ${answer}  `,
        // Aider says so when it has no Playwright: declined, or an install that failed.
        ...(answer === "n" ? ["> Unable to initialize playwright.  "] : []),
        "",
      ].join("\n");
    for (const [answer, outcome] of [
      ["n", "DECLINED"],
      ["y", "UNKNOWN"],
    ] as const) {
      const result = parseAider(utf8(offer(answer)));
      expectWellFormed(result);
      expect(result.records.skipped).toBe(0);
      expect(calls(result).map((c) => [c.toolName, (c.toolInput as { command?: string }).command, c.outcome])).toEqual([
        ["shell", "/usr/bin/python3 -m pip install --upgrade --upgrade-strategy only-if-needed aider-chat[playwright]", outcome],
        ["shell", "/usr/bin/python3 -m playwright install --with-deps chromium", outcome],
      ]);
    }
  });

  it("keeps a markdown heading or quote inside a reply as part of the reply", () => {
    const bytes = utf8(
      "\n# aider chat started at 2025-01-01 00:00:00\n\n> Aider v0.86.1  \n\n#### explain  \n\n#### Step 1\n> a quote\nmore\n\n> Tokens: 1k sent, 2 received.  \n",
    );
    const r = parseAider(bytes);
    expectWellFormed(r);
    const reply = r.sessions[0]!.spans.find((s) => s.role === "assistant");
    expect(text(reply)).toBe("#### Step 1\n> a quote\nmore");
    expect(r.records.skipped).toBe(0);
  });

  it("skips invalid UTF-8, a cut final line and a lost prefix, making the session incomplete", () => {
    const base = "\n# aider chat started at 2025-01-01 00:00:00\n\n#### go  \n> Applied edit to a.py  \n";
    const invalid = new Uint8Array([...utf8(base), ...utf8("> Applied edit to b"), 0xff, ...utf8(".py  \n")]);
    const r1 = parseAider(invalid);
    expectWellFormed(r1);
    expect(r1.issues).toEqual([{ line: 6, message: expect.stringMatching(/invalid UTF-8/) }]);
    expect(r1.sessions[0]!.skipped).toHaveLength(1);

    const r2 = parseAider(utf8(`${base}> Applied edit to c.p`));
    expect(r2.issues).toEqual([{ line: 6, message: expect.stringMatching(/without its closing line break/) }]);

    const r3 = parseAider(utf8(`${base}}} Applied edit to d.py  \n`));
    expect(r3.issues).toEqual([{ line: 6, message: expect.stringMatching(/without a prefix/) }]);
    expect(verdictOf(r3, effectOn("/w/d.py"))).toBe("INSUFFICIENT_EVIDENCE");
  });

  it("reads a file whose trailing spaces an editor stripped, without calling it damaged", () => {
    const stripped = new TextDecoder().decode(edge).replace(/ +$/gm, "");
    const r = parseAider(utf8(stripped));
    expectWellFormed(r);
    expect(r.records.skipped).toBe(0);
    expect(calls(r).find((c) => (c.toolInput as { command?: string }).command === "sudo ufw allow 80")?.outcome).toBe("DECLINED");
  });
});

/**
 * Corrupting records never turns YES into NO. A question the full file answers YES: did the agent
 * write validators/SignalScorer.ts? (one edit, one commit, one create prompt name it). Corruptions:
 * a byte that makes a line invalid UTF-8, a record cut short (its line break lost), a prefix mangled.
 * Not detectable: a whole record deleted (nothing links Aider's records to each other) and a flip
 * that leaves valid text with another meaning; those are not generated.
 */
describe("Aider importer: corruption never turns YES into NO", () => {
  const question = (_s: ImportedSpan, a: Parameters<ReturnType<typeof effectOn>>[1]) =>
    a.atoms.some((x) => x.effect !== undefined && !x.negated && x.normalized.endsWith("validators/SignalScorer.ts"));
  const lines = new TextDecoder().decode(afi).split("\n");

  it("the full file answers YES", () => {
    expect(verdictOf(parseAider(afi), question)).toBe("YES");
  });

  it("holds for random corruptions", () => {
    const corruption = fc.record({
      line: fc.nat({ max: lines.length - 1 }),
      kind: fc.constantFrom("invalid", "cut", "prefix"),
      at: fc.nat({ max: 400 }),
    });
    fc.assert(
      fc.property(fc.array(corruption, { minLength: 1, maxLength: 6 }), (edits) => {
        const copy = [...lines];
        const invalid = new Set<number>();
        for (const e of edits) {
          const l = copy[e.line]!;
          if (l.length === 0) continue;
          if (e.kind === "cut") copy[e.line] = l.slice(0, e.at % l.length);
          else if (e.kind === "prefix") copy[e.line] = `}}${l.slice(2)}`;
          else invalid.add(e.line);
        }
        const parts = copy.map((l, i) => (invalid.has(i) ? new Uint8Array([...utf8(l), 0xc3]) : utf8(l)));
        const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length + 1, 0));
        let o = 0;
        for (const p of parts) {
          bytes.set(p, o);
          o += p.length;
          bytes[o++] = 0x0a;
        }
        const result = parseAider(bytes.subarray(0, bytes.length - 1));
        expectWellFormed(result);
        expect(verdictOf(result, question)).not.toBe("NO");
      }),
      { numRuns: 100 },
    );
  }, 120_000);
});

describe("Aider importer: notices that carry evidence", () => {
  it("reads the repo map's `Repo-map can't include P` as P deleted from the disk", () => {
    // Monochromatic line 26: a file git tracks that the repo map found gone (aider/repomap.py).
    const result = parseAider(mono);
    const gone = callAt(result, 26, "deleted_from_file_system");
    expect(gone.outcome).toBe("SUCCEEDED");
    expect((gone.toolInput as { path: string }).path).toMatch(/packages\\module\\es\\src\\string\.concat\.ts$/);
    // The follow-up question Aider prints names no file: it alone stays a notice.
    expect(result.records.ignoredByType["repo-map-notice"]).toBe(17);
    // The whole history answered "did we delete files?" NO while these notices were ignored.
    const answer = answerOverImport(result, CANNED_QUESTIONS["deleted-files"]);
    expect(answer.answer).toBe("YES");
    expect(answer.citations[0]?.excerpt).toMatch(/string\.concat\.ts$/);
  });
});

describe("Aider importer: a multi-line prompt subject as confirm_ask writes it", () => {
  // aider/io.py confirm_ask: the subject's lines padded to the longest (`ljust`), the whole written
  // by tool_output as one message: `> ` on its first line only, the line break after its last. A
  // block's empty line becomes a line of spaces. Shaped on afi-core's line 1918 block.
  const history = (subject: string[]) =>
    [
      "",
      "# aider chat started at 2025-08-01 10:00:00",
      "",
      "#### set the project up  ",
      "",
      "Run these:",
      "",
      "```bash",
      ...subject,
      "```",
      "",
      ...(() => {
        const width = Math.max(...subject.map((l) => l.length));
        const padded = subject.map((l) => l.padEnd(width));
        padded[padded.length - 1] = padded[padded.length - 1]!.trimEnd();
        return [`> ${padded.join("\n")}  `];
      })(),
      "> Run shell commands? (Y)es/(N)o/(D)on't ask again [Yes]: y  ",
      "",
    ].join("\n");

  it.each([
    ["its first line the longest", ["npm install --save-dev vitest @vitest/coverage-v8", "npm test", "git add -A"]],
    ["an empty line inside it", ["mkdir -p dist/dags", "", "touch dist/dags/index.js dist/dags/signalProcessingDAG.js"]],
  ])("reads every line of a subject with %s, skipping none", (_what, subject) => {
    const result = parseAider(utf8(history(subject)));
    expectWellFormed(result);
    expect(result.issues).toEqual([]);
    expect(result.records.skipped).toBe(0);
    const ran = calls(result).map((c) => [(c.toolInput as { command: string }).command, c.outcome]);
    expect(ran).toEqual(subject.filter((l) => l !== "").map((l) => [l, "UNKNOWN"]));
  });
});

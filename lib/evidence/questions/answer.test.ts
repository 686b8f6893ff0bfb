import { describe, expect, it } from "vitest";
import { describeOutcomes } from "../outcomes";
import { DEFAULT_POLICY } from "../policy";
import { atomIn, bytes, daysAfter, T0 } from "../testkit";
import type { Atom } from "../types";
import { answerQuestion, type QuestionSpan } from "./answer";
import { applyCannedOverrides, CANNED_QUESTIONS, cannedQuestionsFor } from "./canned";
import { validatePredicate, type EvidencePredicate } from "./predicate";
import { seqGaps } from "./scope";

const SYSTEM = CANNED_QUESTIONS["modified-system-config"];
const SHA = "c".repeat(64);

/** A verbatim tool-call span whose atoms sit at their real byte offsets. */
function verbatim(seq: number, body: string, atoms: (b: string) => Atom[], extra: Partial<QuestionSpan> = {}): QuestionSpan {
  return {
    id: `s${seq}`,
    sessionId: "sess",
    seq,
    kind: "TOOL_CALL",
    class: "SIDE_EFFECTING",
    transcriptState: "VERBATIM",
    provenance: "DURABLE",
    originalRetrievable: true,
    atoms: atoms(body),
    sha256: SHA,
    body: bytes(body),
    ...extra,
  };
}

const chat = (seq: number, extra: Partial<QuestionSpan> = {}): QuestionSpan => ({
  id: `s${seq}`,
  sessionId: "sess",
  seq,
  kind: "MESSAGE",
  class: "NARRATIVE",
  transcriptState: "VERBATIM",
  provenance: "NONE",
  originalRetrievable: false,
  atoms: [],
  sha256: SHA,
  ...extra,
});

const WRITE_ETC = 'write_file(path="/etc/app/conf.yaml", mode="overwrite")';
const writeEtc = (seq: number, extra: Partial<QuestionSpan> = {}) =>
  verbatim(
    seq,
    WRITE_ETC,
    (b) => [atomIn(b, "TOOL_CALL", "write_file"), atomIn(b, "PATH", "/etc/app/conf.yaml", { effect: "FILE_WRITE" })],
    extra,
  );
const WRITE_LOCAL = "echo hi > ./notes/ünïcode.md";
const writeLocal = (seq: number, extra: Partial<QuestionSpan> = {}) =>
  verbatim(
    seq,
    WRITE_LOCAL,
    (b) => [
      atomIn(b, "COMMAND", WRITE_LOCAL),
      atomIn(b, "PATH", "./notes/ünïcode.md", { normalized: "/work/app/notes/ünïcode.md", effect: "FILE_WRITE" }),
    ],
    extra,
  );
const scope = (extra: Partial<QuestionScope["sessions"][number]> = {}) => ({ sessions: [{ id: "sess", ...extra }] });
type QuestionScope = Parameters<typeof answerQuestion>[1];

describe("YES", () => {
  it("cites the exact bytes of the matching atom, with span, seq and hash", () => {
    const r = answerQuestion(SYSTEM, scope(), [chat(0), writeEtc(1), writeLocal(2)]);
    expect(r.answer).toBe("YES");
    expect(r.citations).toHaveLength(1);
    const c = r.citations[0]!;
    expect(c).toMatchObject({
      sessionId: "sess",
      spanId: "s1",
      seq: 1,
      sha256: SHA,
      atomKind: "PATH",
      effect: "FILE_WRITE",
      predicateIndex: 0,
    });
    expect(c.byteStart).toBe(WRITE_ETC.indexOf("/etc/app/conf.yaml"));
    expect(c.byteEnd - c.byteStart).toBe("/etc/app/conf.yaml".length);
    expect(new TextDecoder().decode(c.bytes)).toBe("/etc/app/conf.yaml");
    expect(c.excerpt).toBe("/etc/app/conf.yaml");
    expect(r.checkedSpans).toBe(3); // the verbatim chat span was checked too
  });

  it("cites a reclaimed span whose original is still retrievable (durable or expiring)", () => {
    for (const provenance of ["DURABLE", "EXPIRING"] as const) {
      const r = answerQuestion(SYSTEM, scope(), [writeEtc(0, { transcriptState: "RECLAIMED", provenance })]);
      expect(r.answer).toBe("YES");
    }
  });

  it("cites exact byte ranges after multi-byte characters", () => {
    const r = answerQuestion({ atomKinds: ["PATH"], effectKinds: ["FILE_WRITE"] }, scope(), [writeLocal(0)]);
    const c = r.citations[0]!;
    expect(new TextDecoder().decode(bytes(WRITE_LOCAL).slice(c.byteStart, c.byteEnd))).toBe("./notes/ünïcode.md");
    expect(c.excerpt).toBe("./notes/ünïcode.md");
  });
});

describe("NO", () => {
  it("only when nothing matched, every span is complete and seq has no gaps", () => {
    const r = answerQuestion(SYSTEM, scope(), [chat(0), writeLocal(1), chat(2, { transcriptState: "RECLAIMED" })]);
    expect(r).toMatchObject({ answer: "NO", citations: [], blockers: [], gaps: [], scopeComplete: true, checkedSpans: 2 });
  });
});

describe("an incomplete or empty scope", () => {
  it("never answers NO over a scope with no spans: INSUFFICIENT_EVIDENCE, no spans in scope", () => {
    const none = answerQuestion(SYSTEM, { sessions: [] }, [writeEtc(0)]);
    expect(none).toMatchObject({ answer: "INSUFFICIENT_EVIDENCE", noSpansInScope: true, scopeComplete: false });
    const outsideTime = answerQuestion(SYSTEM, { ...scope(), from: new Date("2100-01-01T00:00:00Z") }, [
      chat(0, { occurredAt: new Date("2026-01-01T00:00:00Z") }),
    ]);
    expect(outsideTime).toMatchObject({ answer: "INSUFFICIENT_EVIDENCE", noSpansInScope: true });
  });

  it("never answers NO over a session whose import skipped records, and names them", () => {
    const skippedRecords = [{ line: 7, reason: "malformed JSON; line skipped" }];
    const r = answerQuestion(SYSTEM, { sessions: [{ id: "s", skippedRecords }] }, [{ ...chat(0), sessionId: "s" }]);
    expect(r.answer).toBe("INSUFFICIENT_EVIDENCE");
    expect(r.skippedRecords).toEqual([{ sessionId: "s", line: 7, reason: "malformed JSON; line skipped" }]);
    // A match still answers YES: a skipped record can only hide more evidence.
    const yes = answerQuestion(SYSTEM, { sessions: [{ id: "s", skippedRecords }] }, [{ ...writeEtc(0), sessionId: "s" }]);
    expect(yes.answer).toBe("YES");
  });
});

describe("INSUFFICIENT_EVIDENCE", () => {
  it("a side-effecting span whose original is lost blocks, naming what unblocks it", () => {
    const lost = writeEtc(1, { transcriptState: "RECLAIMED", provenance: "LOST", originalRetrievable: false, atoms: [] });
    const r = answerQuestion(SYSTEM, scope(), [chat(0), lost]);
    expect(r.answer).toBe("INSUFFICIENT_EVIDENCE");
    expect(r.scopeComplete).toBe(false);
    expect(r.blockers).toEqual([
      expect.objectContaining({
        spanId: "s1",
        seq: 1,
        class: "SIDE_EFFECTING",
        provenance: "LOST",
        originalHeld: false,
        unblockBy: "none",
      }),
    ]);
    expect(r.blockers[0]!.reason).toMatch(/lost/);
  });

  it("an expired original still held can be pinned back into evidence", () => {
    const expired = writeEtc(1, {
      transcriptState: "RECLAIMED",
      provenance: "LOST",
      originalRetrievable: false,
      originalHeld: true,
      atoms: [],
    });
    const [b] = answerQuestion(SYSTEM, scope(), [expired]).blockers;
    expect(b).toMatchObject({ originalHeld: true, unblockBy: "pin" });
  });

  it("a span replaced by a summary without a pointer blocks even if its bytes are held", () => {
    const none = writeEtc(0, { transcriptState: "RECLAIMED", provenance: "NONE", originalRetrievable: true });
    const r = answerQuestion(SYSTEM, scope(), [none]);
    expect(r.answer).toBe("INSUFFICIENT_EVIDENCE");
    expect(r.citations).toEqual([]);
    expect(r.blockers[0]).toMatchObject({ provenance: "NONE", originalHeld: true, unblockBy: "none" });
  });

  it("a seq gap blocks a proof of absence", () => {
    const r = answerQuestion(SYSTEM, scope(), [chat(0), writeLocal(1), chat(4)]);
    expect(r.answer).toBe("INSUFFICIENT_EVIDENCE");
    expect(r.blockers).toEqual([]);
    expect(r.gaps).toEqual([{ sessionId: "sess", fromSeq: 2, toSeq: 3 }]);
  });

  it("missing seqs at the ends count when the session's range is declared", () => {
    const r = answerQuestion(SYSTEM, scope({ seqFrom: 0, seqTo: 5 }), [chat(1), chat(2)]);
    expect(r.gaps).toEqual([
      { sessionId: "sess", fromSeq: 0, toSeq: 0 },
      { sessionId: "sess", fromSeq: 3, toSeq: 5 },
    ]);
  });

  it("a match still answers YES despite gaps and blockers (which are listed)", () => {
    const lost = writeEtc(3, { transcriptState: "RECLAIMED", provenance: "LOST", originalRetrievable: false, atoms: [] });
    const r = answerQuestion(SYSTEM, scope(), [writeEtc(0), lost]);
    expect(r.answer).toBe("YES");
    expect(r.scopeComplete).toBe(false);
    expect(r.blockers).toHaveLength(1);
    expect(r.gaps).toHaveLength(1);
  });
});

describe("who can block", () => {
  const lostAs = (cls: QuestionSpan["class"]) =>
    writeEtc(0, { class: cls, transcriptState: "RECLAIMED", provenance: "LOST", originalRetrievable: false, atoms: [] });

  it("narrative spans never block", () => {
    expect(answerQuestion(SYSTEM, scope(), [lostAs("NARRATIVE")]).answer).toBe("NO");
  });

  it("a question on side effects is blocked only by side-effecting spans", () => {
    expect(answerQuestion(SYSTEM, scope(), [lostAs("STRUCTURED")]).answer).toBe("NO");
    expect(answerQuestion(SYSTEM, scope(), [lostAs("SIDE_EFFECTING")]).answer).toBe("INSUFFICIENT_EVIDENCE");
    const mentionsEtc: EvidencePredicate = { atomKinds: ["PATH"], valuePrefixes: ["/etc/"] };
    expect(answerQuestion(mentionsEtc, scope(), [lostAs("STRUCTURED")]).answer).toBe("INSUFFICIENT_EVIDENCE");
  });

  it("an honest summary that dropped a path blocks a path question; one that dropped only numbers does not", () => {
    const honest = (dropped: QuestionSpan["droppedByManifest"]) =>
      writeEtc(0, {
        transcriptState: "RECLAIMED_HONEST",
        provenance: "LOST",
        originalRetrievable: false,
        atoms: [],
        droppedByManifest: dropped,
      });
    const droppedPath = answerQuestion(SYSTEM, scope(), [
      honest([
        { kind: "PATH", count: 1 },
        { kind: "TOOL_ARG", count: 1 },
      ]),
    ]);
    expect(droppedPath.answer).toBe("INSUFFICIENT_EVIDENCE");
    expect(droppedPath.blockers[0]!.dropped).toEqual([
      { kind: "PATH", count: 1 },
      { kind: "TOOL_ARG", count: 1 },
    ]);
    expect(droppedPath.blockers[0]!.reason).toMatch(/dropped 1 path, 1 tool argument/);
    expect(answerQuestion(SYSTEM, scope(), [honest([{ kind: "NUMBER", count: 2 }])]).answer).toBe("NO");
    // A question about numbers is blocked by the same manifest.
    expect(answerQuestion({ atomKinds: ["NUMBER"] }, scope(), [honest([{ kind: "NUMBER", count: 2 }])]).answer).toBe(
      "INSUFFICIENT_EVIDENCE",
    );
  });

  it("a reclaimed span whose summary named no omissions blocks even with droppedByManifest absent", () => {
    const r = answerQuestion(SYSTEM, scope(), [
      writeEtc(0, { transcriptState: "RECLAIMED_HONEST", provenance: "LOST", originalRetrievable: false, atoms: [] }),
    ]);
    expect(r.answer).toBe("INSUFFICIENT_EVIDENCE");
  });
});

describe("summaries are not evidence", () => {
  const SUMMARY_TEXT = "The agent wrote /etc/app/conf.yaml.";
  const summarySpan = (extra: Partial<QuestionSpan> = {}): QuestionSpan => ({
    id: "sum",
    sessionId: "sess",
    seq: 1,
    kind: "SUMMARY",
    class: "SIDE_EFFECTING",
    transcriptState: "VERBATIM",
    provenance: "DURABLE",
    originalRetrievable: true,
    atoms: [atomIn(SUMMARY_TEXT, "PATH", "/etc/app/conf.yaml", { effect: "FILE_WRITE" })],
    sha256: SHA,
    body: bytes(SUMMARY_TEXT),
    replaces: ["s0"],
    ...extra,
  });

  it("never cites a summary's text, and doubts a NO when its originals cannot be checked", () => {
    const lostOriginal = writeEtc(0, {
      transcriptState: "RECLAIMED_HONEST",
      provenance: "LOST",
      originalRetrievable: false,
      atoms: [],
      droppedByManifest: [{ kind: "NUMBER", count: 1 }],
    });
    const r = answerQuestion(SYSTEM, scope(), [lostOriginal, summarySpan()]);
    expect(r.answer).toBe("INSUFFICIENT_EVIDENCE");
    expect(r.citations).toEqual([]);
    expect(r.blockers.map((b) => b.spanId)).toEqual(["sum"]);
    expect(r.blockers[0]!.reason).toMatch(/its text mentions/);
  });

  it("a summary whose claim is not backed by any known original blocks", () => {
    expect(answerQuestion(SYSTEM, scope(), [chat(0), summarySpan({ replaces: undefined })]).answer).toBe("INSUFFICIENT_EVIDENCE");
  });

  it("when the originals are checkable they decide, not the summary", () => {
    const checkableLocal = writeLocal(0, { transcriptState: "RECLAIMED", provenance: "DURABLE" });
    const r = answerQuestion(SYSTEM, scope(), [checkableLocal, summarySpan()]);
    expect(r.answer).toBe("NO");
    const r2 = answerQuestion(SYSTEM, scope(), [writeEtc(0, { transcriptState: "RECLAIMED" }), summarySpan()]);
    expect(r2.answer).toBe("YES");
    expect(r2.citations.map((c) => c.spanId)).toEqual(["s0"]);
  });

  it("follows summaries of summaries down to their originals", () => {
    const gen2: QuestionSpan = { ...summarySpan(), id: "sum2", seq: 2, replaces: ["sum"] };
    const checkableLocal = writeLocal(0, { transcriptState: "RECLAIMED", provenance: "DURABLE" });
    expect(answerQuestion(SYSTEM, scope(), [checkableLocal, summarySpan({ transcriptState: "RECLAIMED" }), gen2]).answer).toBe(
      "NO",
    );
  });

  it("a summary of narrative spans claims nothing a side-effect question cares about", () => {
    const r = answerQuestion(SYSTEM, scope(), [chat(0, { transcriptState: "RECLAIMED" }), summarySpan({ class: "NARRATIVE" })]);
    expect(r.answer).toBe("NO");
  });
});

describe("negations", () => {
  const NEG = "I did not write /etc/hosts; the file was left unchanged.";
  const negSpan = verbatim(0, NEG, (b) => [
    atomIn(b, "NEGATION", "did not write"),
    atomIn(b, "PATH", "/etc/hosts", { effect: "FILE_WRITE", negated: true }),
  ]);

  it("a span saying it did NOT write is not a write", () => {
    expect(answerQuestion(SYSTEM, scope(), [negSpan]).answer).toBe("NO");
  });

  it("counts when the predicate asks for negated atoms too", () => {
    const p: EvidencePredicate = { valuePrefixes: ["/etc/"], includeNegated: true };
    const r = answerQuestion(p, scope(), [negSpan]);
    expect(r.answer).toBe("YES");
    expect(r.citations[0]!.excerpt).toBe("/etc/hosts");
  });
});

describe("scope", () => {
  const other = (seq: number) => ({ ...writeEtc(seq), id: `o${seq}`, sessionId: "other" });

  it("looks only at the sessions in scope", () => {
    expect(answerQuestion(SYSTEM, scope(), [writeLocal(0), other(0)]).answer).toBe("NO");
    const both = { sessions: [{ id: "sess" }, { id: "other" }] };
    expect(answerQuestion(SYSTEM, both, [writeLocal(0), other(0)]).answer).toBe("YES");
  });

  it("restricts to a seq range or chosen spans", () => {
    const spans = [writeLocal(0), writeEtc(1), writeLocal(2)];
    expect(answerQuestion(SYSTEM, scope({ seqFrom: 2, seqTo: 2 }), spans).answer).toBe("NO");
    expect(answerQuestion(SYSTEM, scope({ seqFrom: 1 }), spans).answer).toBe("YES");
    expect(answerQuestion(SYSTEM, scope({ spanIds: ["s0", "s2"] }), spans)).toMatchObject({ answer: "NO", gaps: [] });
  });

  it("restricts to a time range, spans without a time always in", () => {
    const spans = [writeLocal(0, { occurredAt: T0 }), writeEtc(1, { occurredAt: daysAfter(T0, 5) })];
    const early = { ...scope(), from: T0, to: daysAfter(T0, 1) };
    expect(answerQuestion(SYSTEM, early, spans).answer).toBe("NO");
    const late = { ...scope(), from: daysAfter(T0, 1) };
    expect(answerQuestion(SYSTEM, late, spans)).toMatchObject({ answer: "YES", checkedSpans: 1, gaps: [] });
  });

  it("seqGaps ignores duplicates and out-of-range seqs", () => {
    const s = (seq: number) => ({ seq });
    expect(seqGaps({ id: "x", seqFrom: 1, seqTo: 4 }, [s(0), s(1), s(1), s(2), s(4), s(9)])).toEqual([
      { sessionId: "x", fromSeq: 3, toSeq: 3 },
    ]);
    expect(seqGaps({ id: "x" }, [])).toEqual([]);
  });
});

describe("canned questions", () => {
  it("wrote outside the working directory needs the session's cwd", () => {
    const q = CANNED_QUESTIONS["wrote-outside-cwd"];
    expect(answerQuestion(q, scope({ cwd: "/work/app" }), [writeLocal(0)]).answer).toBe("NO");
    expect(answerQuestion(q, scope({ cwd: "/work/app" }), [writeLocal(0), writeEtc(1)]).answer).toBe("YES");
    const unknown = answerQuestion(q, scope(), [writeLocal(0)]);
    expect(unknown.answer).toBe("INSUFFICIENT_EVIDENCE");
    expect(unknown.blockers[0]!.reason).toMatch(/working directory is unknown/);
    const devNull = verbatim(0, "make > /dev/null", (b) => [atomIn(b, "PATH", "/dev/null", { effect: "FILE_WRITE" })]);
    expect(answerQuestion(q, scope({ cwd: "/work/app" }), [devNull]).answer).toBe("NO");
  });

  it("system config counts system package managers and service control, not project installs", () => {
    const apt = verbatim(0, "sudo apt-get install -y nginx", (b) => [
      atomIn(b, "COMMAND", "sudo apt-get install -y nginx", { effect: "PACKAGE_INSTALL" }),
    ]);
    const npm = verbatim(0, "npm install left-pad", (b) => [
      atomIn(b, "COMMAND", "npm install left-pad", { effect: "PACKAGE_INSTALL" }),
    ]);
    const svc = verbatim(0, "systemctl restart nginx", (b) => [
      atomIn(b, "COMMAND", "systemctl restart nginx", { effect: "SERVICE_CONTROL" }),
    ]);
    expect(answerQuestion(SYSTEM, scope(), [apt]).answer).toBe("YES");
    expect(answerQuestion(SYSTEM, scope(), [npm]).answer).toBe("NO");
    expect(answerQuestion(SYSTEM, scope(), [svc]).answer).toBe("YES");
    expect(answerQuestion(CANNED_QUESTIONS["installed-or-removed-packages"], scope(), [npm]).answer).toBe("YES");
  });

  it("system config follows the policy's prefixes, home dotfiles included", () => {
    const rc = verbatim(0, "echo x >> ~/.bashrc", (b) => [
      atomIn(b, "PATH", "~/.bashrc", { normalized: "/home/user/.bashrc", effect: "FILE_WRITE" }),
    ]);
    expect(answerQuestion(SYSTEM, scope(), [rc]).answer).toBe("YES");
    const narrow = cannedQuestionsFor({ ...DEFAULT_POLICY, systemConfigPrefixes: ["/etc/"] })["modified-system-config"];
    expect(answerQuestion(narrow, scope(), [rc]).answer).toBe("NO");
    expect(answerQuestion(narrow, scope(), [writeEtc(0)]).answer).toBe("YES");
  });

  it("escalated privileges include sandbox escalation requests in tool arguments", () => {
    const body = '{"command":["rm","-rf","build"],"with_escalated_permissions":true}';
    const esc = verbatim(0, body, (b) => [atomIn(b, "TOOL_ARG", "true", { argName: "with_escalated_permissions" })]);
    expect(answerQuestion(CANNED_QUESTIONS["escalated-privileges"], scope(), [esc]).answer).toBe("YES");
    const sudo = verbatim(0, "sudo ls", (b) => [atomIn(b, "COMMAND", "sudo ls", { effect: "PRIVILEGE_ESCALATION" })]);
    expect(answerQuestion(CANNED_QUESTIONS["escalated-privileges"], scope(), [sudo]).answer).toBe("YES");
  });

  it("network mutations and deleted files", () => {
    const post = verbatim(0, "curl -X POST https://api.example.com/x", (b) => [
      atomIn(b, "URL", "https://api.example.com/x", { effect: "NETWORK_MUTATION" }),
    ]);
    const rm = verbatim(1, "rm -rf build", (b) => [
      atomIn(b, "PATH", "build", { normalized: "/work/app/build", effect: "FILE_DELETE" }),
    ]);
    expect(answerQuestion(CANNED_QUESTIONS["network-mutations"], scope(), [post, rm]).citations.map((c) => c.spanId)).toEqual([
      "s0",
    ]);
    expect(answerQuestion(CANNED_QUESTIONS["deleted-files"], scope(), [post, rm]).citations.map((c) => c.spanId)).toEqual(["s1"]);
  });

  it("counts a push to a remote repository as a network mutation", () => {
    const push = verbatim(0, "git push origin main", (b) => [
      atomIn(b, "COMMAND", "git push origin main", { effect: "VCS_PUSH" }),
    ]);
    expect(answerQuestion(CANNED_QUESTIONS["network-mutations"], scope(), [push]).answer).toBe("YES");
  });

  it("can be overridden by a policy owner", () => {
    const qs = applyCannedOverrides(CANNED_QUESTIONS, {
      "deleted-files": { title: "Deleted anything?", anyOf: [{ effectKinds: ["FILE_DELETE", "FILE_MOVE"] }] },
    });
    expect(qs["deleted-files"]).toMatchObject({ id: "deleted-files", title: "Deleted anything?" });
    expect(qs["network-mutations"]).toBe(CANNED_QUESTIONS["network-mutations"]);
  });
});

describe("predicates", () => {
  it("tool names, argument names and patterns", () => {
    const spans = [writeEtc(0)];
    expect(answerQuestion({ toolNames: ["WRITE_FILE"] }, scope(), spans).citations.map((c) => c.atomKind)).toEqual(["TOOL_CALL"]);
    expect(answerQuestion({ toolNames: ["read_file"] }, scope(), spans).answer).toBe("NO");
    expect(answerQuestion({ toolNames: ["write_file"], valuePrefixes: ["/etc/"] }, scope(), spans).citations).toHaveLength(1);
    expect(answerQuestion({ valuePattern: "conf\\.ya?ml$" }, scope(), spans).answer).toBe("YES");
    expect(() => answerQuestion({ valuePattern: "(" }, scope(), spans)).toThrow(/valuePattern/);
    expect(
      validatePredicate({ valuePattern: "(", atomKinds: ["PATHS" as "PATH"], effectKinds: ["NUKE" as "FILE_WRITE"] }).map(
        (e) => e.field,
      ),
    ).toEqual(["valuePattern", "atomKinds", "effectKinds"]);
    expect(validatePredicate(CANNED_QUESTIONS["escalated-privileges"].anyOf[1]!)).toEqual([]);
  });

  it("a command pattern qualifies the span", () => {
    const spans = [
      verbatim(0, "sudo tee /etc/hosts", (b) => [
        atomIn(b, "COMMAND", "sudo tee /etc/hosts"),
        atomIn(b, "PATH", "/etc/hosts", { effect: "FILE_WRITE" }),
      ]),
    ];
    expect(answerQuestion({ commandPattern: "^sudo\\b", atomKinds: ["PATH"] }, scope(), spans).answer).toBe("YES");
    expect(answerQuestion({ commandPattern: "^doas\\b", atomKinds: ["PATH"] }, scope(), spans).answer).toBe("NO");
  });
});

describe("outcomes", () => {
  const write = { effectKinds: ["FILE_WRITE" as const], valuePrefixes: ["/etc/"] };
  const failed = writeEtc(0, { kind: "TOOL_CALL", outcome: "FAILED", exitCode: 1 });
  const succeeded = writeEtc(2, { id: "s2", kind: "TOOL_CALL", outcome: "SUCCEEDED", exitCode: 0 });

  it("restricts matches to the outcomes asked for, and every citation carries its call's outcome", () => {
    const onlySucceeded = answerQuestion({ ...write, outcomes: ["SUCCEEDED"] }, scope(), [failed, chat(1)]);
    expect(onlySucceeded.answer).toBe("NO");
    const onlyFailed = answerQuestion({ ...write, outcomes: ["FAILED", "UNKNOWN"] }, scope(), [failed, chat(1), succeeded]);
    expect(onlyFailed.answer).toBe("YES");
    expect(onlyFailed.citations.map((c) => [c.spanId, c.outcome, c.exitCode])).toEqual([["s0", "FAILED", 1]]);
  });

  it("counts attempts of any outcome and says how they went", () => {
    const r = answerQuestion(write, scope(), [failed, chat(1), succeeded]);
    expect(r.outcomes).toEqual({ SUCCEEDED: 1, FAILED: 1 });
    expect(describeOutcomes(r.outcomes)).toBe("2 attempts: 1 succeeded, 1 failed");
  });

  it("a message span is no call: an outcome restriction never cites it", () => {
    const prose = writeEtc(0, { kind: "MESSAGE" });
    expect(answerQuestion({ ...write, outcomes: ["SUCCEEDED"] }, scope(), [prose]).answer).toBe("NO");
  });
});

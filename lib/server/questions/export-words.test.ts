import { describe, expect, it } from "vitest";
import { CANNED_QUESTIONS } from "@/lib/evidence/questions";
import { predicateInWords, questionInWords, scopeInWords } from "./export-words";

describe("predicateInWords", () => {
  it("renders kinds with their article, value prefixes with the engine's path semantics, and negation", () => {
    expect(predicateInWords({ atomKinds: ["PATH", "IDENTIFIER"], valuePrefixes: ["/etc/", "~/.ssh/", "~/.*", "sk-"] })).toBe(
      'A path or identifier whose value is "/etc/" or below it, "~/.ssh/" in any home directory, ' +
        'a dotfile or dot-directory in a home directory or anything starting with "sk-"; negated mentions ("did not …") do not count.',
    );
    expect(predicateInWords({ atomKinds: ["IDENTIFIER"] })).toMatch(/^An identifier;/);
    expect(predicateInWords({ atomKinds: ["URL"] })).toMatch(/^A URL;/);
  });

  it("renders committed side effects, exclusions and the working directory", () => {
    expect(
      predicateInWords({ effectKinds: ["FILE_WRITE", "FILE_DELETE"], outsideCwd: true, excludePrefixes: ["/dev/null"] }),
    ).toBe(
      'A target of a committed file write or file deletion, except "/dev/null" or below it, ' +
        'outside the session\'s working directory; negated mentions ("did not …") do not count.',
    );
  });

  it("renders tool names, argument names, patterns, outcomes and counted negations", () => {
    const words = predicateInWords({
      atomKinds: ["TOOL_ARG"],
      argNames: ["sandbox_permissions"],
      valuePattern: "^true$",
      valuePatternFlags: "i",
      toolNames: ["Bash", "shell"],
      commandPattern: "apt(-get)? install",
      outcomes: ["FAILED", "UNKNOWN"],
      includeNegated: true,
    });
    expect(words).toBe(
      'A tool argument named "sandbox_permissions" whose value matches the pattern /^true$/i, ' +
        'in a call of the tool "Bash" or "shell", in a span running a command that matches /apt(-get)? install/i (any case), ' +
        'in a call that failed or outcome unknown; negated mentions ("did not …") count too.',
    );
  });

  it("says what an empty predicate matches, and quotes hostile values visibly", () => {
    expect(predicateInWords({})).toBe('Any fact; negated mentions ("did not …") do not count.');
    expect(predicateInWords({ valuePrefixes: ['a"b\n<script>'] })).toContain('"a\\"b\\n<script>"');
  });
});

describe("questionInWords", () => {
  it("numbers several predicates and says one plainly", () => {
    const system = questionInWords(CANNED_QUESTIONS["modified-system-config"]);
    expect(system.split("\n")[0]).toBe("YES when some span holds any of:");
    expect(system.split("\n")).toHaveLength(CANNED_QUESTIONS["modified-system-config"].anyOf.length + 1);
    expect(system).toContain("2. A target of a committed package install or package removal, in a span running a command");
    expect(questionInWords(CANNED_QUESTIONS["deleted-files"])).toBe(
      'YES when some span holds: A target of a committed file deletion; negated mentions ("did not …") do not count.',
    );
    expect(questionInWords({ anyOf: [] })).toMatch(/no predicates/);
  });
});

describe("scopeInWords", () => {
  const from = new Date("2026-11-01T00:00:00Z");
  const to = new Date("2026-12-01T00:00:00Z");
  it("names the sessions and the time range, its end exclusive", () => {
    expect(scopeInWords("Shop", {})).toBe('Every session of project "Shop", spans of any time.');
    expect(scopeInWords("Shop", { sessionIds: ["s1"], from, to })).toBe(
      'Session s1 of project "Shop", spans from 2026-11-01 00:00 UTC up to (not including) 2026-12-01 00:00 UTC.',
    );
    expect(scopeInWords("Shop", { sessionIds: ["a", "b"], from })).toBe(
      '2 sessions of project "Shop", spans from 2026-11-01 00:00 UTC on.',
    );
    expect(scopeInWords("Shop", { to })).toBe('Every session of project "Shop", spans before 2026-12-01 00:00 UTC.');
  });
});

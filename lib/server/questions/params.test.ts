import { describe, expect, it } from "vitest";
import { evidenceQueryFromParams } from "./params";

const P = "00000000-0000-4000-8000-000000000000";

describe("evidenceQueryFromParams", () => {
  it("reads a canned question with a session and an inclusive date range", () => {
    const input = evidenceQueryFromParams(P, new URLSearchParams("q=deleted-files&session=s1&from=2026-11-01&to=2026-11-30"));
    expect(input).toEqual({
      projectId: P,
      question: { canned: "deleted-files" },
      scope: { sessionIds: ["s1"], from: new Date("2026-11-01T00:00:00Z"), to: new Date("2026-12-01T00:00:00Z") },
    });
  });

  it("builds a custom predicate from the builder's fields and ignores unknown kinds", () => {
    const input = evidenceQueryFromParams(
      P,
      new URLSearchParams("q=custom&effect=FILE_WRITE&effect=BOGUS&prefix=/etc/%0A~/.ssh/&tool=write_file&negated=on"),
    );
    expect(input?.question).toEqual({
      predicate: {
        effectKinds: ["FILE_WRITE"],
        valuePrefixes: ["/etc/", "~/.ssh/"],
        toolNames: ["write_file"],
        includeNegated: true,
      },
      title: "Custom question",
    });
  });

  it("restricts a custom predicate to the call outcomes ticked, ignoring unknown ones", () => {
    const input = evidenceQueryFromParams(
      P,
      new URLSearchParams("q=custom&tool=Bash&outcome=FAILED&outcome=UNKNOWN&outcome=BOGUS"),
    );
    expect(input?.question).toEqual({
      predicate: { toolNames: ["Bash"], outcomes: ["FAILED", "UNKNOWN"] },
      title: "Custom question",
    });
  });

  it("asks nothing without a question, and refuses an empty custom question or a bad date", () => {
    expect(evidenceQueryFromParams(P, new URLSearchParams(""))).toBeNull();
    expect(() => evidenceQueryFromParams(P, new URLSearchParams("q=custom"))).toThrow(/at least one condition/);
    expect(() => evidenceQueryFromParams(P, new URLSearchParams("q=deleted-files&from=yesterday"))).toThrow(/Invalid date/);
  });

  it("refuses a day that is not on the calendar, as the API refuses such a date, rather than rolling it over", () => {
    for (const day of ["2026-02-30", "2026-13-01", "2026-00-10", "9999-99-99", "0000-01-01", "2026-2-3", "2026-02-03T05:00"])
      expect(() => evidenceQueryFromParams(P, new URLSearchParams(`q=deleted-files&to=${day}`)), day).toThrow(/Invalid date/);
    expect(evidenceQueryFromParams(P, new URLSearchParams("q=deleted-files&from=2028-02-29"))?.scope).toEqual({
      from: new Date("2028-02-29T00:00:00Z"),
    });
  });
});

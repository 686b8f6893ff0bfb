import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/core/errors";
import { auditQueryParams, parseAuditQuery } from "./page-query";

function failure(raw: Record<string, string>): AppError {
  try {
    parseAuditQuery(raw);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(raw)} to be refused`);
}

describe("the audit log's query from the URL", () => {
  it("defaults to the newest first, page 1, no filter; empty fields are no filter", () => {
    expect(parseAuditQuery({})).toEqual({ page: 1, sort: "newest" });
    expect(parseAuditQuery({ act: "", person: "", from: "", page: "" })).toEqual({ page: 1, sort: "newest" });
  });

  it("reads every filter, the first of repeated keys, and URLSearchParams alike", () => {
    const raw = {
      page: "3",
      sort: "oldest",
      person: "ada@example.com",
      act: "original.pin",
      from: "2026-11-01",
      to: "2026-11-30",
      targetType: "span",
      targetId: "abc",
    };
    const parsed = parseAuditQuery(raw);
    expect(parsed).toEqual({ ...raw, page: 3 });
    expect(parseAuditQuery(new URLSearchParams(raw))).toEqual(parsed);
    expect(parseAuditQuery({ act: ["original.pin", "policy.update"] }).act).toBe("original.pin");
  });

  it("refuses bad values with VALIDATION_FAILED naming the field", () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ page: "0" }, "page"],
      [{ page: "two" }, "page"],
      [{ sort: "sideways" }, "sort"],
      [{ from: "2026-13-01" }, "from"],
      [{ to: "yesterday" }, "to"],
      [{ from: "2026-12-02", to: "2026-12-01" }, "to"],
      [{ act: "DROP TABLE" }, "act"],
      [{ targetId: "abc" }, "targetType"],
      [{ person: "x".repeat(400) }, "person"],
      [{ person: "a\u0000b" }, "person"],
      [{ targetType: "span", targetId: "\u0000" }, "targetId"],
      [{ to: "9999-12-31" }, "to"],
      [{ from: "0000-01-01" }, "from"],
    ];
    for (const [raw, field] of cases) {
      const error = failure(raw);
      expect(error.code, JSON.stringify(raw)).toBe("VALIDATION_FAILED");
      expect(error.fields?.map((f) => f.path)).toEqual([field]);
      expect(error.message).toContain(field);
    }
  });

  it("writes the filters back for links, without defaults, with the page when past the first", () => {
    const query = parseAuditQuery({ act: "original.pin", sort: "oldest", from: "2026-11-01" });
    expect(auditQueryParams(query).toString()).toBe("act=original.pin&from=2026-11-01&sort=oldest");
    expect(auditQueryParams(query, 4).get("page")).toBe("4");
    expect(auditQueryParams(parseAuditQuery({}), 1).toString()).toBe("");
  });
});

/**
 * The house rules no linter rule states: small source files. Tests, fixtures, generated code and
 * migrations are exempt; a file that outgrows the limit is split by concern, not squeezed.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const MAX_LINES = 400;
const EXEMPT = [/\.test\.ts$/, /\.spec\.ts$/, /\/fixtures\//, /^lib\/db\/generated\//, /^prisma\/migrations\//];

function sourceFiles(): string[] {
  const tracked = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "*.ts", "*.tsx"], {
    encoding: "utf8",
  });
  return tracked.split("\n").filter((f) => f !== "" && !EXEMPT.some((re) => re.test(f)));
}

describe("the house", () => {
  it(`has no source file over ${MAX_LINES} lines`, () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    const long = files
      .map((file) => ({ file, lines: readFileSync(file, "utf8").split("\n").length }))
      .filter((f) => f.lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});

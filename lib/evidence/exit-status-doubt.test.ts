/**
 * A shell call that exited 0 although an earlier command failed, on outputs of real calls: a Claude
 * Code 2.1.5 session of entireio/cli (branch entire/checkpoints/v1) ran
 * `mise run test:integration -- -run TestShadow_TranscriptCondensation -v 2>&1 | tail -100`, which
 * the runtime recorded as a success (is_error false) while the tests failed.
 */
import { describe, expect, it } from "vitest";
import { failureLine, readHiddenFailure } from "./exit-status-doubt";
import { scriptOfCommand } from "./shell/script-of";

const PIPED = "mise run test:integration -- -run TestShadow_TranscriptCondensation -v 2>&1 | tail -100";
const FAILED_TESTS = [
  "    manual_commit_workflow_test.go:628:   Branch: entire/sessions",
  "--- FAIL: TestShadow_TranscriptCondensation (0.86s)",
  "FAIL",
  "FAIL\tentire.io/cli/cmd/entire/cli/integration_test\t1.671s",
  "FAIL",
  "[test:integration] ERROR task failed",
].join("\n");
const PASSED_TESTS =
  "=== RUN   TestShadow_TranscriptCondensation\n--- PASS: TestShadow_TranscriptCondensation (0.91s)\nPASS\nok  \tentire.io/cli/cmd/entire/cli/integration_test\t1.702s";

describe("a success whose script may hide an earlier failure", () => {
  it("is UNKNOWN when the output reports an error, naming the command and the line", () => {
    const read = readHiddenFailure({ outcome: "SUCCEEDED" }, FAILED_TESTS, scriptOfCommand(PIPED));
    expect(read.outcome).toBe("UNKNOWN");
    expect(read.doubt).toBe(
      "success may be the last command's (`mise run test:integration -- -run TestShadow_TranscriptCondensation -v 2>&1` runs into a pipe without pipefail); the output reports an error: FAIL\tentire.io/cli/cmd/entire/cli/integration_test\t1.671s",
    );
  });

  it("stays SUCCEEDED when the output reports no error, or when the status is every command's", () => {
    expect(readHiddenFailure({ outcome: "SUCCEEDED", exitCode: 0 }, PASSED_TESTS, scriptOfCommand(PIPED))).toEqual({
      outcome: "SUCCEEDED",
    });
    const whole = scriptOfCommand("mise run test:integration -- -run TestShadow_TranscriptCondensation -v");
    expect(readHiddenFailure({ outcome: "SUCCEEDED", exitCode: 0 }, FAILED_TESTS, whole)).toEqual({ outcome: "SUCCEEDED" });
    expect(readHiddenFailure({ outcome: "FAILED", exitCode: 1 }, FAILED_TESTS, scriptOfCommand(PIPED))).toEqual({
      outcome: "FAILED",
    });
  });

  it("reads a Codex argv's script, and git's and a linter's error lines", () => {
    const fsck = scriptOfCommand(["bash", "-lc", "git -C /repo fsck --full --unreachable 2>&1 | head -20"]);
    const git = "error: 082c2c4495629bd585a0a11807b4e0ede9a99753: invalid sha1 pointer in cache-tree of .git/worktrees/1/index";
    expect(readHiddenFailure({ outcome: "SUCCEEDED", exitCode: 0 }, git, fsck).doubt).toMatch(
      /^exit 0 may be the last command's \(`git -C \/repo fsck/,
    );
    expect(failureLine("Error: unknown flag: --out-format\nUsage:")).toBe("Error: unknown flag: --out-format");
    expect(failureLine("✖ 3 problems (3 errors, 0 warnings)")).toBe("✖ 3 problems (3 errors, 0 warnings)");
    expect(failureLine("src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.")).not.toBeNull();
  });

  it("does not take passing counts or quoted source for an error", () => {
    expect(failureLine("Tests: 0 failed, 12 passed")).toBeNull();
    expect(failureLine('src/log.ts:12:    throw new Error("failed to parse")')).toBeNull();
    expect(failureLine("ok  \tgithub.com/x/y\t0.3s")).toBeNull();
  });
});

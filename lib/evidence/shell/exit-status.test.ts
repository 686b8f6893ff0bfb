/** Whose exit status a script's is: command lines as agents ran them (Claude Code 2.1 and Codex sessions). */
import { describe, expect, it } from "vitest";
import { hiddenEarlierFailure } from "./exit-status";
import { scriptOfCommand } from "./script-of";

describe("an earlier command whose failure the exit status would not show", () => {
  it("is a pipe's earlier stage without pipefail", () => {
    expect(
      hiddenEarlierFailure("mise run test:integration -- -run TestShadow_TranscriptCondensation -v 2>&1 | tail -100"),
    ).toEqual({
      by: "pipe",
      command: "mise run test:integration -- -run TestShadow_TranscriptCondensation -v 2>&1",
    });
    expect(hiddenEarlierFailure("npm run lint 2>&1 | grep -E 'error|warning' | head -20")?.by).toBe("pipe");
  });

  it("is the left side of ||, a command before ; or a newline without set -e, and a background job", () => {
    expect(hiddenEarlierFailure('git check-ref-format --branch "../escape" 2>&1 || echo "rejected"')).toEqual({
      by: "or",
      command: 'git check-ref-format --branch "../escape" 2>&1',
    });
    expect(hiddenEarlierFailure("npm run build; npm test")?.by).toBe("sequence");
    expect(hiddenEarlierFailure("go vet ./...\ngo test ./...")?.by).toBe("sequence");
    expect(hiddenEarlierFailure("npm run dev > /tmp/dev.log 2>&1 & sleep 3 && curl -s localhost:3000")).toEqual({
      by: "background",
      command: "npm run dev > /tmp/dev.log 2>&1",
    });
  });

  it("is none when the status covers every command", () => {
    expect(hiddenEarlierFailure("cd /repo && npm run lint")).toBeNull();
    expect(hiddenEarlierFailure("go test ./cmd/entire/cli/...")).toBeNull();
    expect(hiddenEarlierFailure("set -o pipefail; go test ./... 2>&1 | tail -5")).toBeNull();
    expect(hiddenEarlierFailure("set -euo pipefail\nnpm ci\nnpm test | tee test.log")).toBeNull();
    expect(hiddenEarlierFailure("set -e; npm run build; npm test")).toBeNull();
    expect(hiddenEarlierFailure('echo "=== lint ==="; npm run lint')).toBeNull();
    expect(hiddenEarlierFailure("if grep -q pipefail run.sh; then echo yes; fi")).toBeNull();
    expect(hiddenEarlierFailure("grep -rn 'error' src | wc -l", { pipefail: true })).toBeNull();
    // A reader's output is the file's: error lines in a log it reads are no doubt about it.
    expect(hiddenEarlierFailure("cat /tmp/dev.log | grep -i error | tail -20")).toBeNull();
    // Sub-commands that print what is recorded: a CI log's FAIL lines are its, not this call's.
    expect(hiddenEarlierFailure("gh run view 123 --log-failed | tail -50")).toBeNull();
    expect(hiddenEarlierFailure("gh -R org/repo pr checks 7 | grep fail")).toBeNull();
    expect(hiddenEarlierFailure("git -C ../other show HEAD:test.log | grep FAIL")).toBeNull();
    // ...but a git or gh sub-command that acts still hides its failure.
    expect(hiddenEarlierFailure("git push origin main 2>&1 | tail -3")?.by).toBe("pipe");
    expect(hiddenEarlierFailure("gh pr merge 7 --squash | cat")?.by).toBe("pipe");
  });

  it("reads `|` and `;` inside quotes as text, not structure", () => {
    expect(hiddenEarlierFailure(`grep -E "FAIL|panic" test.log`)).toBeNull();
    expect(hiddenEarlierFailure(`git commit -m "fix: a; b | c"`)).toBeNull();
  });
});

describe("the script of a command argument", () => {
  it("is the -c element of a shell argv (Codex), with the shell's options", () => {
    expect(scriptOfCommand(["bash", "-lc", "cargo test 2>&1 | tail -20"])).toEqual({
      script: "cargo test 2>&1 | tail -20",
      errexit: false,
      pipefail: false,
    });
    expect(scriptOfCommand(["/bin/zsh", "-c", "ls"])?.script).toBe("ls");
    expect(scriptOfCommand(["bash", "-e", "-o", "pipefail", "-c", "a | b"])).toEqual({
      script: "a | b",
      errexit: true,
      pipefail: true,
    });
    expect(hiddenEarlierFailure("a | b", scriptOfCommand(["bash", "-o", "pipefail", "-c", "a | b"])!)).toBeNull();
  });

  it("is the string itself, or any other argv's words joined", () => {
    expect(scriptOfCommand("npm test")?.script).toBe("npm test");
    expect(scriptOfCommand(["rg", "-n", "TODO"])?.script).toBe("rg -n TODO");
    expect(scriptOfCommand({ command: "x" })).toBeNull();
  });
});

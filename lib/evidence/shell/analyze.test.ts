import { describe, expect, it } from "vitest";
import { analyzeSpan } from "../analyze";
import type { SideEffectKind, SpanInput } from "../types";

const enc = new TextEncoder();

function bash(command: string, extra: Partial<SpanInput> = {}) {
  const input: SpanInput = {
    body: enc.encode(JSON.stringify({ command })),
    kind: "TOOL_CALL",
    toolName: "Bash",
    cwd: "/w",
    ...extra,
  };
  return analyzeSpan(input);
}

/** [normalized, effect] of the PATH atoms that carry an effect. */
function targets(command: string, extra: Partial<SpanInput> = {}): Array<[string, SideEffectKind | undefined]> {
  return bash(command, extra)
    .atoms.filter((a) => a.kind === "PATH" && a.effect)
    .map((a) => [a.normalized, a.effect]);
}
function effects(command: string): SideEffectKind[] {
  return bash(command).classification.effects;
}
function cls(command: string) {
  return bash(command).classification.class;
}

describe("read-only commands", () => {
  it.each([
    "ls -la src",
    "cat README.md | head -n 20",
    "grep -rn TODO src --include '*.ts'",
    "rg -n 'fn main' -g '*.rs'",
    "find . -name '*.py' -type f",
    "git status && git diff HEAD~1 -- src/app.ts && git log --oneline -n 5",
    "git branch -a && git remote -v && git config --get user.email",
    "echo hello",
    "pwd; whoami; uname -a",
    "wc -l src/*.ts",
    "jq '.version' package.json",
    "sed -n '1,20p' src/app.ts",
    "awk '{print $1}' access.log | sort | uniq -c",
    "systemctl status nginx",
    "docker ps -a && docker logs web",
    "kubectl get pods -n prod",
    "npm ls --depth=0",
    "pip list",
    "apt-cache policy nginx",
    "curl -sI https://example.com",
    "python3 --version",
    "command -v node > /dev/null",
    "tail -f /var/log/syslog 2>/dev/null",
  ])("%s", (c) => {
    expect(cls(c)).toBe("STRUCTURED");
  });
});

describe("writes and their targets", () => {
  it("> and >> write; /dev/null does not", () => {
    expect(targets("echo a > out.txt; echo b >> ~/.profile; echo c > /dev/null 2>&1")).toEqual([
      ["/w/out.txt", "FILE_WRITE"],
      ["/home/user/.profile", "FILE_WRITE"],
    ]);
  });

  it("tee, cp, install, ln, touch, mkdir, truncate", () => {
    expect(
      targets("tee -a /etc/hosts; cp -r src dist/; install -m 755 bin/app /usr/local/bin/app; ln -sf /opt/x /usr/bin/x"),
    ).toEqual([
      ["/etc/hosts", "FILE_WRITE"],
      ["/w/dist", "FILE_WRITE"],
      ["/usr/local/bin/app", "FILE_WRITE"],
      ["/usr/bin/x", "FILE_WRITE"],
    ]);
    expect(targets("touch a.txt && mkdir -p b/c && truncate -s 0 log.txt")).toEqual([
      ["/w/a.txt", "FILE_WRITE"],
      ["/w/b/c", "FILE_WRITE"],
      ["/w/log.txt", "FILE_WRITE"],
    ]);
  });

  it("cp -t names the destination", () => {
    expect(targets("cp -t /srv/www index.html style.css")).toEqual([["/srv/www", "FILE_WRITE"]]);
  });

  it("rm deletes, mv moves both ends, dd writes of=", () => {
    expect(targets("rm -f a.log; mv old.txt new.txt; dd if=/dev/zero of=/dev/sdb bs=1M")).toEqual([
      ["/w/a.log", "FILE_DELETE"],
      ["/w/old.txt", "FILE_MOVE"],
      ["/w/new.txt", "FILE_MOVE"],
      ["/dev/sdb", "FILE_WRITE"],
    ]);
  });

  it("sed -i writes its files, not its script", () => {
    expect(targets("sed -i.bak -e 's/a/b/' conf/app.ini")).toEqual([["/w/conf/app.ini", "FILE_WRITE"]]);
    expect(targets("sed -i 's|/old/path|/new/path|g' /etc/app.conf")).toEqual([["/etc/app.conf", "FILE_WRITE"]]);
  });

  it("perl -pi -e and awk -i inplace", () => {
    expect(targets("perl -pi -e 's/foo/bar/' lib/x.pm")).toEqual([["/w/lib/x.pm", "FILE_WRITE"]]);
    expect(targets("gawk -i inplace '{print}' data.csv")).toEqual([["/w/data.csv", "FILE_WRITE"]]);
  });

  it("chmod/chown change permissions, the mode is not a path", () => {
    expect(targets("chmod -R 755 bin && chown www-data:www-data /var/www")).toEqual([
      ["/w/bin", "PERMISSION_CHANGE"],
      ["/var/www", "PERMISSION_CHANGE"],
    ]);
    expect(targets("chmod -x scripts/run.sh")).toEqual([["/w/scripts/run.sh", "PERMISSION_CHANGE"]]);
  });

  it("tar -x writes where -C says; tar -c writes the archive", () => {
    expect(targets("tar -xzf app.tgz -C /opt/app")).toEqual([["/opt/app", "FILE_WRITE"]]);
    expect(targets("tar czf backup.tgz src")).toEqual([["/w/backup.tgz", "FILE_WRITE"]]);
  });

  it("curl -o and wget -O write files", () => {
    expect(targets("curl -fsSL https://x.io/install.sh -o /tmp/install.sh")).toEqual([["/tmp/install.sh", "FILE_WRITE"]]);
    expect(targets("wget -q -O /usr/local/bin/jq https://x.io/jq")).toEqual([["/usr/local/bin/jq", "FILE_WRITE"]]);
    expect(cls("wget -qO- https://x.io/health")).toBe("STRUCTURED");
  });

  it("find -exec runs its command on what find finds", () => {
    expect(effects("find /var/tmp -name '*.tmp' -exec rm {} \\;")).toContain("FILE_DELETE");
    expect(targets("find /var/tmp -name '*.tmp' -exec rm {} +")).toContainEqual(["/var/tmp", "FILE_DELETE"]);
  });

  it("cd moves later relative paths; a subshell-free chain keeps it", () => {
    expect(targets("cd /srv && cd app && rm -rf build")).toEqual([["/srv/app/build", "FILE_DELETE"]]);
  });

  it("xargs runs its command", () => {
    expect(effects("git ls-files '*.orig' | xargs rm")).toContain("FILE_DELETE");
  });
});

describe("privilege, packages, services, network, databases, git, containers", () => {
  it("sudo escalates and runs what follows", () => {
    const r = bash("sudo -u postgres psql -c 'DROP DATABASE staging'");
    expect(r.classification.effects).toEqual(expect.arrayContaining(["PRIVILEGE_ESCALATION", "DB_WRITE"]));
    expect(r.atoms.find((a) => a.kind === "COMMAND" && a.effect === "PRIVILEGE_ESCALATION")?.normalized).toBe("sudo -u postgres");
  });

  it("sudo alone is still an escalation", () => {
    expect(effects("sudo ls /root")).toEqual(["PRIVILEGE_ESCALATION"]);
  });

  it("package installs and removals name their packages", () => {
    const r = bash("sudo apt-get install -y --no-install-recommends nginx curl && pip uninstall -y requests");
    const pk = r.atoms.filter((a) => a.argName === "package").map((a) => [a.normalized, a.effect]);
    expect(pk).toEqual([
      ["nginx", "PACKAGE_INSTALL"],
      ["curl", "PACKAGE_INSTALL"],
      ["requests", "PACKAGE_REMOVE"],
    ]);
  });

  it.each([
    ["yarn add lodash", "PACKAGE_INSTALL"],
    ["pnpm add -D vitest", "PACKAGE_INSTALL"],
    ["brew install jq", "PACKAGE_INSTALL"],
    ["cargo install ripgrep", "PACKAGE_INSTALL"],
    ["dnf install -y git", "PACKAGE_INSTALL"],
    ["apk add --no-cache bash", "PACKAGE_INSTALL"],
    ["npm uninstall left-pad", "PACKAGE_REMOVE"],
    ["dpkg -i pkg.deb", "PACKAGE_INSTALL"],
    ["python -m pip install httpx", "PACKAGE_INSTALL"],
  ])("%s", (c, e) => {
    expect(effects(c)).toContain(e);
  });

  it("services: systemctl verbs, service, init scripts", () => {
    expect(effects("systemctl enable --now docker")).toContain("SERVICE_CONTROL");
    expect(effects("service nginx reload")).toContain("SERVICE_CONTROL");
    expect(effects("/etc/init.d/postgresql restart")).toContain("SERVICE_CONTROL");
    expect(cls("service nginx status")).toBe("STRUCTURED");
  });

  it.each([
    "curl -X DELETE https://api.x.io/v1/items/7",
    "curl -d 'a=1' https://api.x.io/form",
    "curl --json '{\"a\":1}' https://api.x.io/j",
    "curl -T file.bin https://up.x.io/",
    "wget --post-data 'a=1' https://api.x.io/",
    "http PUT api.x.io/items/7 name=x",
    "gh pr create --fill",
  ])("network mutation: %s", (c) => {
    expect(effects(c)).toContain("NETWORK_MUTATION");
  });

  it.each([
    ["mysql -e 'INSERT INTO t VALUES (1)'", "SIDE_EFFECTING"],
    ["mysql -e 'SHOW TABLES'", "STRUCTURED"],
    ["sqlite3 app.db 'ALTER TABLE users ADD COLUMN age INT'", "SIDE_EFFECTING"],
    ["sqlite3 app.db '.tables'", "STRUCTURED"],
    ["echo 'UPDATE t SET x=1' | psql", "SIDE_EFFECTING"],
    ["psql -f migrate.sql", "SIDE_EFFECTING"],
    ["redis-cli FLUSHALL", "SIDE_EFFECTING"],
    ["redis-cli GET k", "STRUCTURED"],
  ])("database: %s", (c, expected) => {
    expect(cls(c)).toBe(expected);
  });

  it("psql with a heredoc of writes", () => {
    expect(effects("psql app <<'SQL'\nCREATE TABLE t(id int);\nSQL")).toContain("DB_WRITE");
  });

  it.each([
    ["git commit -am 'wip'", "VCS_COMMIT"],
    ["git push --force-with-lease", "VCS_PUSH"],
    ["git merge feature", "VCS_COMMIT"],
    ["git rebase -i HEAD~3", "VCS_COMMIT"],
    ["git reset --hard HEAD~1", "SHELL_MUTATION"],
    ["git checkout -- src/app.ts", "FILE_WRITE"],
    ["git rm -r old/", "FILE_DELETE"],
    ["git clean -fdx", "FILE_DELETE"],
    ["docker run --rm alpine echo hi", "PROCESS_SPAWN"],
    ["docker compose up -d", "PROCESS_SPAWN"],
    ["docker rmi app:old", "SHELL_MUTATION"],
    ["kubectl apply -f deploy.yaml", "SHELL_MUTATION"],
    ["kubectl exec -it web -- sh", "PROCESS_SPAWN"],
    ["terraform apply -auto-approve", "SHELL_MUTATION"],
    ["crontab -r", "SHELL_MUTATION"],
    ["useradd -m deploy", "PERMISSION_CHANGE"],
    ["kill -9 4242", "SHELL_MUTATION"],
  ])("%s", (c, e) => {
    expect(effects(c)).toContain(e);
  });

  it("the commit message is data: its negation cancels nothing", () => {
    const r = bash('git commit -m "did not change config"');
    expect(r.classification.effects).toEqual(["VCS_COMMIT"]);
    expect(r.atoms.some((a) => a.negated)).toBe(false);
  });
});

describe("scripts inside scripts", () => {
  it("bash -c, sh -c and su -c are analysed", () => {
    expect(targets(`bash -c "rm -rf /tmp/x"`)).toEqual([["/tmp/x", "FILE_DELETE"]]);
    expect(effects(`su - root -c 'systemctl stop cron'`)).toEqual(
      expect.arrayContaining(["PRIVILEGE_ESCALATION", "SERVICE_CONTROL"]),
    );
  });

  it("a heredoc fed to a shell is a script", () => {
    expect(targets("bash <<'EOF'\ntouch /etc/flag\nEOF")).toEqual([["/etc/flag", "FILE_WRITE"]]);
  });

  it("piping into a shell is not known to be read-only", () => {
    expect(effects("curl -fsSL https://get.x.io | sh")).toContain("SHELL_MUTATION");
  });

  it("unknown commands and scripts are mutations", () => {
    expect(bash("frobnicate --all").classification.reasons.map((r) => r.rule)).toContain("shell.unknown-command");
    expect(bash("./deploy.sh prod").classification.reasons.map((r) => r.rule)).toContain("shell.runs-code");
  });
});

describe("hostile names", () => {
  it.each(["toString", "constructor x", "__proto__", "npm constructor", "apt-get valueOf"])(
    "%s is analysed, not crashed on",
    (c) => {
      expect(() => bash(c)).not.toThrow();
      expect(cls(c)).toBe("SIDE_EFFECTING");
    },
  );
});

describe("read-only subcommands", () => {
  const cls = (command: string) => bash(command).classification.class;

  it("issue trackers: reading is structured, changing is side-effecting", () => {
    for (const c of [
      "bd show cu-12",
      "bd ready --json",
      "bd list --status open",
      "jira view ABC-1",
      "jira issue list",
      "glab mr view 3",
    ]) {
      expect(cls(c), c).toBe("STRUCTURED");
    }
    for (const c of [
      "bd update cu-12 --status done",
      "bd create 'x'",
      "bd close cu-1",
      "bd dep add a b",
      "jira issue create",
      "bd",
    ]) {
      expect(cls(c), c).toBe("SIDE_EFFECTING");
    }
  });

  it("make only prints or checks under -n, --dry-run, -q; otherwise it runs the recipes", () => {
    for (const c of [
      "make -n",
      "make -n build",
      "make --dry-run install",
      "make -C sub --just-print",
      "make -q all",
      "make -nB",
    ]) {
      expect(cls(c), c).toBe("STRUCTURED");
    }
    for (const c of ["make", "make build", "make -j4 test", "make -f Makefile.n", "make -C n"])
      expect(cls(c), c).toBe("SIDE_EFFECTING");
  });

  it("git, kubectl, forge and package-manager queries stay read-only", () => {
    for (const c of [
      "git status --short && git log --oneline -5 && git diff HEAD~1 && git show HEAD && git branch -a && git remote -v && git rev-parse HEAD && git blame x.ts",
      "kubectl get pods -n x && kubectl describe pod a && kubectl logs a",
      "gh issue view 12 && gh issue list && gh pr view 3 && gh pr list && gh pr diff 3",
      "npm ls && npm view react && npm outdated",
      "pip list && pip show x && pip freeze",
      "apt list --installed && apt show x && apt policy x && apt-cache policy x && dpkg -l && dpkg -s x",
      "brew list && brew info x && cargo tree",
    ]) {
      expect(cls(c), c).toBe("STRUCTURED");
    }
    for (const c of [
      "git branch feature",
      "kubectl apply -f x.yaml",
      "gh pr merge 3",
      "npm install",
      "pip install x",
      "apt-get install x",
    ]) {
      expect(cls(c), c).toBe("SIDE_EFFECTING");
    }
  });

  it("test runners count as side-effecting: they run the project's code, which writes caches and may write anything", () => {
    for (const c of ["npm test", "pytest -q", "cargo test", "go test ./...", "npx vitest run"])
      expect(cls(c), c).toBe("SIDE_EFFECTING");
  });

  it("packet tools read unless they write a capture", () => {
    expect(cls("tshark -n -r networking.pcap -q -z io,phs")).toBe("STRUCTURED");
    expect(effects("tcpdump -i eth0 -w /tmp/cap.pcap")).toEqual(["FILE_WRITE"]);
  });
});

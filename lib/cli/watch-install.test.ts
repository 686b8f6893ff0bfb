/** The watcher's user service: what --dry-run prints is what install writes, for each platform. */
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { installService, serviceFile, servicePlatform } from "./watch-install";

const base = { project: "team", root: "/srv/custodian app", node: "/usr/bin/node" };

describe("watch install", () => {
  it("writes a systemd user unit on Linux that runs the watcher in the checkout, owner-only with DATABASE_URL", () => {
    const home = mkdtempSync(join(tmpdir(), "custodian-unit-"));
    const options = { ...base, platform: "linux" as const, userHome: home, databaseUrl: "postgresql://u:p@db/custodian" };
    const dry = installService(options, true);
    expect(dry.written).toBe(false);
    expect(dry.path).toBe(join(home, ".config", "systemd", "user", "custodian-watch.service"));
    expect(dry.text).toContain('ExecStart=/usr/bin/node "/srv/custodian app/lib/cli/custodian.mjs" watch --project team\n');
    expect(dry.text).toContain('WorkingDirectory="/srv/custodian app"');
    expect(dry.text).toContain("Environment=DATABASE_URL=postgresql://u:p@db/custodian\n");
    expect(dry.text).toContain("WantedBy=default.target");
    expect(dry.start).toContain("systemctl --user enable --now custodian-watch.service");
    const done = installService(options, false);
    expect(readFileSync(done.path, "utf8")).toBe(dry.text);
    expect(statSync(done.path).mode & 0o777).toBe(0o600);
  });

  it("writes a launchd agent on macOS with every argument escaped", () => {
    const file = serviceFile({ ...base, platform: "darwin", userHome: "/Users/a", watchHome: "/Users/a & b" });
    expect(file.path).toBe("/Users/a/Library/LaunchAgents/com.custodian.watch.plist");
    expect(file.text).toContain("<string>--home</string>\n    <string>/Users/a &amp; b</string>");
    expect(file.text).toContain("<key>KeepAlive</key><true/>");
    expect(file.text).not.toContain("DATABASE_URL");
    expect(file.start).toBe("launchctl load -w /Users/a/Library/LaunchAgents/com.custodian.watch.plist");
  });

  it("refuses a platform it cannot install on, naming the field", () => {
    expect(() => servicePlatform("win32")).toThrow(/linux \(systemd\) and darwin \(launchd\)/);
  });
});

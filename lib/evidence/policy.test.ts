import { describe, expect, it } from "vitest";
import {
  HOME_DOTFILES_TOKEN,
  homeRelative,
  isHomeDotfile,
  isPathUnder,
  pathMatchesAnyPrefix,
  pathMatchesPrefix,
} from "./path-prefix";
import { DAY_MS, DEFAULT_POLICY, DEFAULT_SYSTEM_CONFIG_PREFIXES, expiresAtFor, horizonFor, validatePolicy } from "./policy";
import { T0 } from "./testkit";

describe("DEFAULT_POLICY", () => {
  it("keeps structured and side-effecting originals until at least the horizon", () => {
    const p = DEFAULT_POLICY;
    expect(p.evidenceWorkloads).toBe(true);
    expect(p.ttlDays.STRUCTURED).toBeGreaterThanOrEqual(p.evidenceHorizonDays);
    expect(p.ttlDays.SIDE_EFFECTING).toBeGreaterThanOrEqual(p.evidenceHorizonDays);
    expect(p.ttlDays.NARRATIVE).toBeLessThan(p.evidenceHorizonDays);
    expect(validatePolicy(p)).toEqual({ valid: true, errors: [], warnings: [] });
  });

  it("cannot be mutated by a caller", () => {
    expect(() => {
      (DEFAULT_POLICY as { evidenceHorizonDays: number }).evidenceHorizonDays = 1;
    }).toThrow();
    expect(() => DEFAULT_POLICY.systemConfigPrefixes.push("/x/")).toThrow();
  });
});

describe("expiresAtFor / horizonFor", () => {
  it("add whole UTC days to the span's time", () => {
    expect(expiresAtFor("NARRATIVE", T0, DEFAULT_POLICY).getTime()).toBe(T0.getTime() + 30 * DAY_MS);
    expect(expiresAtFor("SIDE_EFFECTING", T0, DEFAULT_POLICY).toISOString()).toBe("2028-01-01T00:00:00.000Z");
    expect(horizonFor(T0, DEFAULT_POLICY).getTime()).toBe(T0.getTime() + 400 * DAY_MS);
  });
});

describe("validatePolicy", () => {
  it("names each bad field", () => {
    const r = validatePolicy({
      evidenceHorizonDays: 0,
      ttlDays: { NARRATIVE: -1, STRUCTURED: 1.5, BOGUS: 3 },
      evidenceWorkloads: "yes",
      systemConfigPrefixes: ["etc/", "/etc/", "/etc/", ""],
    });
    expect(r.valid).toBe(false);
    const fields = r.errors.map((e) => e.field).sort();
    expect(fields).toEqual(
      [
        "evidenceHorizonDays",
        "evidenceWorkloads",
        "systemConfigPrefixes.0",
        "systemConfigPrefixes.2",
        "systemConfigPrefixes.3",
        "ttlDays.BOGUS",
        "ttlDays.NARRATIVE",
        "ttlDays.SIDE_EFFECTING",
        "ttlDays.STRUCTURED",
      ].sort(),
    );
  });

  it("rejects non-objects and absurd day counts", () => {
    expect(validatePolicy(null).valid).toBe(false);
    expect(validatePolicy([]).valid).toBe(false);
    const r = validatePolicy({ ...DEFAULT_POLICY, evidenceHorizonDays: 400 * 86_400 });
    expect(r.errors).toEqual([{ field: "evidenceHorizonDays", message: expect.stringContaining("at most") }]);
  });

  it("warns when a TTL undercuts the horizon or workloads are off", () => {
    const r = validatePolicy({
      ...DEFAULT_POLICY,
      ttlDays: { ...DEFAULT_POLICY.ttlDays, STRUCTURED: 90 },
      evidenceWorkloads: false,
    });
    expect(r.valid).toBe(true);
    expect(r.warnings.map((w) => w.field)).toEqual(["ttlDays.STRUCTURED", "evidenceWorkloads"]);
  });
});

describe("system-config path prefixes", () => {
  const sys = (p: string) => pathMatchesAnyPrefix(p, DEFAULT_SYSTEM_CONFIG_PREFIXES);

  it("match system directories and home dotfiles of any user", () => {
    for (const p of [
      "/etc/app/conf.yaml",
      "/etc",
      "/usr/local/bin/tool",
      "/boot/grub/grub.cfg",
      "/lib/systemd/system/app.service",
      "/var/lib/dpkg/status",
      "/home/user/.bashrc",
      "/home/alice/.zshrc",
      "/root/.profile",
      "/home/bob/.ssh/authorized_keys",
      "/Users/carol/.gitconfig",
      "/home/dave/.npmrc",
      "/lib/x86_64-linux-gnu/libc.so.6",
      "/lib64/ld-linux-x86-64.so.2",
      "/opt/app/bin/run",
      "/var/lib/apt/lists/lock",
      "/var/lib/rpm/Packages",
      "/var/spool/cron/crontabs/root",
      "/etc/systemd/system/app.service",
      "/home/u/.config/systemd/user/sync.service",
      "/home/u/.bash_profile",
      "/home/u/.zprofile",
      "/home/u/.config/fish/config.fish",
      "/home/u/.config/git/config",
      "/home/u/.claude/settings.json",
      "/home/u/.claude/settings.local.json",
      "/home/u/.codex/config.toml",
      "/home/u/.gemini/settings.json",
      "/home/u/.aider.conf.yml",
    ]) {
      expect(sys(p), p).toBe(true);
    }
  });

  it("do not match project files or look-alike paths", () => {
    for (const p of [
      "/work/app/etc/conf.yaml",
      "/etcetera/x",
      "/home/user/project/.env",
      "/home/user/notes.txt",
      "/var/log/syslog",
      "/home/.bashrc",
      "relative/.bashrc",
      // Agent runtimes' plans, sessions and caches are not configuration.
      "/home/u/.claude/plans/refactor.md",
      "/home/u/.claude/projects/-w/0e7c9a52.jsonl",
      "/home/u/.codex/sessions/2025/11/17/rollout.jsonl",
      "/home/u/.cache/pip/http/x",
      "/var/lib/postgresql/16/main/base/1",
    ]) {
      expect(sys(p), p).toBe(false);
    }
  });

  it("treat a prefix as a path, not a string", () => {
    expect(pathMatchesPrefix("/etc/app/conf.yaml", "/etc/app/conf")).toBe(false);
    expect(pathMatchesPrefix("/etc/app/conf", "/etc/app/conf")).toBe(true);
    expect(pathMatchesPrefix("/etc/sshd_config", "/etc/ssh")).toBe(false);
    expect(pathMatchesPrefix("/home/u/.bashrc.bak", "~/.bashrc")).toBe(false);
    expect(pathMatchesPrefix("/home/u/.ssh", "~/.ssh/")).toBe(true);
  });

  it("are a named list: no catch-all for every dot-folder in a home directory", () => {
    expect(DEFAULT_SYSTEM_CONFIG_PREFIXES).not.toContain(HOME_DOTFILES_TOKEN);
    // A policy owner may still opt into the catch-all.
    expect(pathMatchesAnyPrefix("/home/u/.claude/plans/x.md", [...DEFAULT_SYSTEM_CONFIG_PREFIXES, HOME_DOTFILES_TOKEN])).toBe(
      true,
    );
  });

  it("homeRelative and isHomeDotfile", () => {
    expect(homeRelative("/home/alice/.bashrc")).toBe(".bashrc");
    expect(homeRelative("/home/alice")).toBe("");
    expect(homeRelative("/root/x/y")).toBe("x/y");
    expect(homeRelative("/rootfs/x")).toBeNull();
    expect(homeRelative("/home/")).toBeNull();
    expect(isHomeDotfile("/root/.bashrc")).toBe(true);
    expect(isHomeDotfile("/home/u/.config/git/config")).toBe(true);
    expect(isHomeDotfile("/home/u/../etc")).toBe(false);
    expect(isHomeDotfile("/home/u/src/.git/config")).toBe(false);
  });

  it("isPathUnder respects component boundaries", () => {
    expect(isPathUnder("/work/app/x", "/work/app")).toBe(true);
    expect(isPathUnder("/work/app", "/work/app/")).toBe(true);
    expect(isPathUnder("/work/app2/x", "/work/app")).toBe(false);
    expect(isPathUnder("/anything", "/")).toBe(true);
  });
});

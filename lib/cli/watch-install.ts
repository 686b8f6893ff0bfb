/**
 * `custodian watch install [--dry-run]`: runs the watcher as a user service that starts at login
 * and restarts when it stops: a systemd user unit on Linux
 * (`~/.config/systemd/user/custodian-watch.service`), a launchd agent on macOS
 * (`~/Library/LaunchAgents/com.custodian.watch.plist`). The service runs this checkout's CLI under
 * the Node that runs the installer, in the checkout (where the migrations are), with DATABASE_URL
 * when it is set now; the file is then readable by its owner only, since the URL may hold a password.
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { AppError } from "@/lib/core/errors";
import { projectRoot } from "./hook-paths";

export type ServicePlatform = "linux" | "darwin";

export interface ServiceOptions {
  platform: ServicePlatform;
  project: string;
  /** The home folder the watcher reads (given only when not the user's own). */
  watchHome?: string;
  root?: string;
  node?: string;
  userHome?: string;
  databaseUrl?: string;
}

export interface ServiceFile {
  path: string;
  text: string;
  /** What to run afterwards to start it. */
  start: string;
}

export function servicePlatform(value: string | undefined): ServicePlatform {
  const platform = value ?? process.platform;
  if (platform === "linux" || platform === "darwin") return platform;
  throw new AppError("VALIDATION_FAILED", `watch install supports linux (systemd) and darwin (launchd), not "${platform}"`, {
    details: { field: "platform" },
  });
}

function commandOf(options: ServiceOptions): string[] {
  const root = options.root ?? projectRoot();
  return [
    options.node ?? process.execPath,
    join(root, "lib", "cli", "custodian.mjs"),
    "watch",
    "--project",
    options.project,
    ...(options.watchHome ? ["--home", options.watchHome] : []),
  ];
}

/** systemd quotes an argument with spaces or quotes in double quotes, backslash-escaped. */
const systemdArg = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `"${s.replace(/(["\\])/g, "\\$1")}"`);
const xml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function serviceFile(options: ServiceOptions): ServiceFile {
  const root = options.root ?? projectRoot();
  const home = options.userHome ?? homedir();
  const command = commandOf(options);
  if (options.platform === "linux") {
    const text = [
      "[Unit]",
      "Description=Custodian: import local agent transcripts as they are written",
      "",
      "[Service]",
      "Type=simple",
      `WorkingDirectory=${systemdArg(root)}`,
      `ExecStart=${command.map(systemdArg).join(" ")}`,
      ...(options.databaseUrl ? [`Environment=${systemdArg(`DATABASE_URL=${options.databaseUrl}`)}`] : []),
      "Environment=NODE_ENV=production",
      "Restart=on-failure",
      "RestartSec=10",
      "",
      "[Install]",
      "WantedBy=default.target",
      "",
    ].join("\n");
    return {
      path: join(home, ".config", "systemd", "user", "custodian-watch.service"),
      text,
      start: "systemctl --user daemon-reload && systemctl --user enable --now custodian-watch.service",
    };
  }
  const path = join(home, "Library", "LaunchAgents", "com.custodian.watch.plist");
  const env = { ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}), NODE_ENV: "production" };
  const text = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    "<dict>",
    "  <key>Label</key><string>com.custodian.watch</string>",
    "  <key>ProgramArguments</key>",
    "  <array>",
    ...command.map((arg) => `    <string>${xml(arg)}</string>`),
    "  </array>",
    `  <key>WorkingDirectory</key><string>${xml(root)}</string>`,
    "  <key>EnvironmentVariables</key>",
    "  <dict>",
    ...Object.entries(env).map(([k, v]) => `    <key>${k}</key><string>${xml(v)}</string>`),
    "  </dict>",
    "  <key>RunAtLoad</key><true/>",
    "  <key>KeepAlive</key><true/>",
    `  <key>StandardOutPath</key><string>${xml(join(home, "Library", "Logs", "custodian-watch.log"))}</string>`,
    `  <key>StandardErrorPath</key><string>${xml(join(home, "Library", "Logs", "custodian-watch.log"))}</string>`,
    "</dict>",
    "</plist>",
    "",
  ].join("\n");
  return { path, text, start: `launchctl load -w ${path}` };
}

/** Writes the service file (owner-only when it holds DATABASE_URL) unless dry; returns it. */
export function installService(options: ServiceOptions, dryRun: boolean): ServiceFile & { written: boolean } {
  const file = serviceFile(options);
  if (dryRun) return { ...file, written: false };
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, file.text);
  chmodSync(file.path, options.databaseUrl ? 0o600 : 0o644);
  return { ...file, written: true };
}

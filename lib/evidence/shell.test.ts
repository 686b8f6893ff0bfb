import { describe, expect, it } from "vitest";
import { analyzeShellCommand } from "./shell";

describe("analyzeShellCommand", () => {
  it("reports effects, the primary one, and the touched paths", () => {
    const r = analyzeShellCommand("sudo systemctl restart nginx && echo ok >> ~/deploy.log", { homeDir: "/home/ops" });
    expect(r.effects).toEqual(["SERVICE_CONTROL", "PRIVILEGE_ESCALATION", "FILE_WRITE"]);
    expect(r.primary).toEqual({ effect: "SERVICE_CONTROL", rule: "shell.service" });
    expect(r.readOnly).toBe(false);
    expect(r.atoms.find((a) => a.kind === "PATH")).toMatchObject({ normalized: "/home/ops/deploy.log", effect: "FILE_WRITE" });
  });

  it("read-only commands have no effects", () => {
    const r = analyzeShellCommand("git log --oneline | head -n 5");
    expect(r).toMatchObject({ effects: [], readOnly: true });
    expect(r.primary).toBeUndefined();
  });

  it("byte ranges index the command's UTF-8 bytes", () => {
    const cmd = "touch /srv/café/menü.txt";
    const r = analyzeShellCommand(cmd);
    const p = r.atoms.find((a) => a.kind === "PATH")!;
    expect(new TextDecoder().decode(new TextEncoder().encode(cmd).subarray(p.byteStart, p.byteEnd))).toBe("/srv/café/menü.txt");
  });
});

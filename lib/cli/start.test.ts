import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Runs `npm start`'s entry point with some environment and reports how it ended. */
function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "lib/cli/start.ts"], {
      env: { ...process.env, DATABASE_URL: "", CUSTODIAN_DATABASE_MODE: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("close", (code) => resolve({ code, stderr, stdout }));
  });
}

describe("npm start with bad configuration", { timeout: 60_000 }, () => {
  let blocker: Server | undefined;
  afterAll(() => blocker?.close());

  it("an unreachable DATABASE_URL ends with one line naming the host", async () => {
    const result = await start({ DATABASE_URL: "postgresql://postgres@127.0.0.1:1/custodian", PORT: String(await freePort()) });
    expect(result.code).not.toBe(0);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^custodian: Cannot reach Postgres at 127\.0\.0\.1:1\/custodian/);
  });

  it("a port in use ends with one line saying to pick another", async () => {
    blocker = createServer();
    const port = await new Promise<number>((resolve) =>
      blocker!.listen(0, "127.0.0.1", () => resolve((blocker!.address() as { port: number }).port)),
    );
    const result = await start({ PORT: String(port), DATABASE_URL: "postgresql://postgres@127.0.0.1:1/x" });
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split("\n")).toEqual([
      `custodian: Port ${port} on 127.0.0.1 is in use: stop what uses it or run with PORT=<another port>.`,
    ]);
  });

  it("a corrupt embedded data folder ends with one line, and nothing in it is deleted", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "custodian-corrupt-"));
    const dataDir = path.join(dir, "pgdata");
    mkdirSync(dataDir);
    writeFileSync(path.join(dataDir, "PG_VERSION"), "not a version\n");
    writeFileSync(path.join(dataDir, "postgresql.conf"), "this is = not valid = config\n");
    const before = readdirSync(dataDir).sort();
    const result = await start({ CUSTODIAN_DATA_DIR: dataDir, PORT: String(await freePort()) });
    expect(result.code).not.toBe(0);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`The embedded database in ${dataDir} could not be opened`);
    expect(readdirSync(dataDir).sort()).toEqual(before);
    expect(readFileSync(path.join(dataDir, "PG_VERSION"), "utf8")).toBe("not a version\n");
  });
});

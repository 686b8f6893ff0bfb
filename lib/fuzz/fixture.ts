/** What the fuzz requests work on: a project with keys of every role, a session with spans, sample transcripts. */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { createApiKey, createProject } from "@/lib/server/admin";
import { appendSpans, upsertSession } from "@/lib/server/ingest";

/** What the requests work on: a project with keys of every role, a session with spans, another project. */
export interface FuzzFixture {
  keys: { admin: string; operator: string; viewer: string; other: string };
  sessionIds: string[];
  spanIds: string[];
  transcripts: Uint8Array[];
}

export async function makeFixture(label = "fuzz"): Promise<FuzzFixture> {
  const suffix = randomBytes(4).toString("hex");
  const project = await createProject({ slug: `${label}-${suffix}`, name: `Fuzz ${suffix}` });
  const other = await createProject({ slug: `${label}-other-${suffix}`, name: `Fuzz other ${suffix}` });
  const actor = { type: "SYSTEM" as const, label: "fuzz" };
  const keys = {
    admin: (await createApiKey(project.id, "fuzz-admin", "ADMIN", actor)).key,
    operator: (await createApiKey(project.id, "fuzz-operator", "OPERATOR", actor)).key,
    viewer: (await createApiKey(project.id, "fuzz-viewer", "VIEWER", actor)).key,
    other: (await createApiKey(other.id, "fuzz-other", "OPERATOR", actor)).key,
  };
  const { session } = await upsertSession(project.id, {
    externalId: `fuzz-${suffix}`,
    runtime: "claude-code",
    cwd: "/home/dev/app",
  });
  const enc = new TextEncoder();
  const spans = await appendSpans(project.id, session.id, [
    { seq: 0, kind: "MESSAGE", role: "user", occurredAt: new Date(), body: enc.encode("Please fix the config.") },
    {
      seq: 1,
      kind: "TOOL_CALL",
      toolName: "write_file",
      toolInput: { path: "/etc/app/conf.yaml" },
      occurredAt: new Date(),
      body: enc.encode('{"path":"/etc/app/conf.yaml","content":"x: 1"}'),
    },
    {
      seq: 2,
      kind: "TOOL_CALL",
      toolName: "Bash",
      toolInput: { command: "sudo apt-get install nginx" },
      exitCode: 0,
      occurredAt: new Date(),
      body: enc.encode('{"command":"sudo apt-get install nginx"}'),
    },
  ]);
  return {
    keys,
    sessionIds: [session.id],
    spanIds: spans.map((s) => s.id),
    transcripts: sampleTranscripts(),
  };
}

/** A few small transcript files of the supported formats, to import whole or damaged. */
function sampleTranscripts(root = process.cwd()): Uint8Array[] {
  const dir = path.join(root, "lib", "importers", "fixtures");
  const files: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d)) {
      const full = path.join(d, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (statSync(full).size < 200_000) files.push(full);
    }
  };
  try {
    walk(dir);
  } catch {
    return [new TextEncoder().encode('{"type":"user","message":{"role":"user","content":"hi"}}\n')];
  }
  return files.sort().map((f) => new Uint8Array(readFileSync(f)));
}

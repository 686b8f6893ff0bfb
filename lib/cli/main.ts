/**
 * `npm run custodian -- <command>`: terminal commands against the configured database
 * (DATABASE_URL, or the embedded one — shared with a running `npm start`).
 */
import { parseArgs } from "node:util";
import { AppError } from "@/lib/core/errors";
import { prepareDatabase } from "@/lib/db/bootstrap";
import { db, disconnectDb } from "@/lib/db/client";
import { createApiKey } from "@/lib/server/admin";
import { CLI, describeChainReport, verifyAuditChain } from "@/lib/server/audit";
import { createProject, findProjectBySlug } from "@/lib/server/admin";
import { runMaintenance } from "@/lib/server/background";
import { createUser, listUsers } from "@/lib/server/admin";
import { importLocally, importViaServer, printOutcome } from "./import-command";
import { IMPORT_FORMATS } from "@/lib/importers";
import { runMain } from "@/lib/runner/run-main";
import { runMcpStdio } from "./mcp";
import { HOOK_USAGE, runHookCommand } from "./hook-command";
import { CITUS_USAGE, runCitusCommand } from "./citus-command";
import { MEMBERS_USAGE, runMembersCommand } from "./members-command";
import { runVerifyExport, VERIFY_EXPORT_USAGE } from "./verify-export";
import { runWatchCommand, WATCH_USAGE } from "./watch-main";

const USAGE = `Usage: npm run custodian -- <command> [options]

Commands:
  keys create --project <slug> [--name <name>] [--role viewer|operator|admin]
                      Create an API key for a runtime; the key is printed once.
  keys list --project <slug>
                      List a project's keys (prefixes only).
  users create --email <email> [--name <name>] [--role viewer|operator|admin] [--password <password>]
                      Invite a person to the dashboard; a generated password is printed once.
  users list          List people and their instance roles.
${MEMBERS_USAGE}  projects create --slug <slug> [--name <name>]
                      Create a project with the default retention policy.
  projects list       List projects.
  import <file> [--format <format>] [--project <slug>] [--ttl-from received|occurred]
                      Import a transcript into the local database (default project: demo).
                      Formats: ${IMPORT_FORMATS.join(", ")} (detected when not given).
                      TTLs count from receipt unless --ttl-from occurred.
  import <file> --server <url> --key <api key> [--format ...] [--ttl-from ...]
                      Import through a running server's API.
  sweep               Delete originals whose TTL passed and that are not pinned.
  mcp                 Custodian's MCP tools over stdio (relayed to CUSTODIAN_URL's /api/v1/mcp
                      with CUSTODIAN_KEY).
${HOOK_USAGE}${WATCH_USAGE}${CITUS_USAGE}  audit verify        Check the audit log's hash chain; names the first broken link (exit status 1).
${VERIFY_EXPORT_USAGE}`;

const ROLES = { viewer: "VIEWER", operator: "OPERATOR", admin: "ADMIN" } as const;

async function main() {
  const [group, action, ...rest] = process.argv.slice(2);
  if (!group || group === "help" || group === "--help") {
    console.log(USAGE);
    return;
  }
  if (group === "import") {
    await runImport(action, rest);
    return;
  }
  if (group === "mcp") {
    await runMcpStdio();
    return;
  }
  if (group === "verify-export") {
    await runVerifyExport(action, rest);
    return;
  }
  if (group === "hook") {
    await runHookCommand([action ?? "", ...rest]);
    return;
  }
  if (group === "citus") {
    await runCitusCommand(action, rest);
    return;
  }
  if (group === "watch") {
    await runWatchCommand(action === undefined ? rest : [action, ...rest]);
    return;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      project: { type: "string" },
      name: { type: "string" },
      role: { type: "string" },
      slug: { type: "string" },
      email: { type: "string" },
      password: { type: "string" },
    },
    allowPositionals: false,
  });
  const database = await prepareDatabase();
  try {
    await run(group, action, values);
  } finally {
    await disconnectDb();
    await database.stop();
  }
}

async function run(group: string, action: string | undefined, values: Record<string, string | undefined>) {
  const command = `${group} ${action ?? ""}`.trim();
  switch (command) {
    case "keys create": {
      const project = await findProjectBySlug(required(values.project, "--project"));
      const key = await createApiKey(project.id, values.name ?? "runtime", roleFrom(values.role ?? "operator"), CLI);
      console.log(`Created API key "${key.name}" (${key.role.toLowerCase()}) for project ${project.slug}.`);
      console.log("Store it now: it is shown only this once.\n");
      console.log(key.key);
      return;
    }
    case "keys list": {
      const project = await findProjectBySlug(required(values.project, "--project"));
      const keys = await db().apiKey.findMany({ where: { projectId: project.id }, orderBy: { createdAt: "asc" } });
      for (const k of keys) {
        console.log(
          `${k.prefix}…  ${k.name}  ${k.role.toLowerCase()}  created ${k.createdAt.toISOString()}${k.revokedAt ? "  REVOKED" : ""}`,
        );
      }
      if (keys.length === 0) console.log("No keys.");
      return;
    }
    case "users create": {
      const user = await createUser(
        {
          email: required(values.email, "--email"),
          name: values.name,
          role: roleFrom(values.role ?? "viewer"),
          password: values.password,
        },
        CLI,
      );
      console.log(`Created ${user.role.toLowerCase()} ${user.email}.`);
      if (user.generatedPassword) console.log(`Password (shown once): ${user.generatedPassword}`);
      return;
    }
    case "users list": {
      for (const u of await listUsers()) console.log(`${u.email}  ${u.role.toLowerCase()}  ${u.name}`);
      return;
    }
    case "members add":
    case "members list":
      await runMembersCommand(action, values);
      return;
    case "projects create": {
      const slug = required(values.slug, "--slug");
      const project = await createProject({ slug, name: values.name ?? slug }, CLI);
      console.log(`Created project ${project.slug} (${project.id}).`);
      return;
    }
    case "projects list": {
      for (const p of await db().project.findMany({ orderBy: { createdAt: "asc" } })) console.log(`${p.slug}  ${p.name}`);
      return;
    }
    case "sweep": {
      const result = await runMaintenance();
      console.log(
        `Swept ${result.deleted} originals; ${result.lostSpanIds.length} spans moved to LOST; ` +
          `scrub verified ${result.verified} originals (${result.damaged} damaged); ${result.verdictsForgotten} stored verdicts no question reads deleted.`,
      );
      return;
    }
    case "audit verify": {
      const report = await verifyAuditChain();
      console.log(describeChainReport(report));
      if (report.broken) process.exitCode = 1;
      return;
    }
    default:
      throw new AppError("INVALID_REQUEST", `Unknown command "${command}". Run \`npm run custodian -- help\`.`);
  }
}

async function runImport(file: string | undefined, args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      format: { type: "string" },
      project: { type: "string" },
      server: { type: "string" },
      key: { type: "string" },
      "ttl-from": { type: "string" },
    },
  });
  const { "ttl-from": ttlFrom, ...rest } = values;
  const options = { file: required(file, "<file>"), ...rest, ttlFrom };
  if (values.server) {
    printOutcome(await importViaServer({ ...options, server: values.server, key: required(values.key, "--key") }));
    return;
  }
  const database = await prepareDatabase();
  try {
    printOutcome(await importLocally(options));
  } finally {
    await disconnectDb();
    await database.stop();
  }
}

function roleFrom(value: string) {
  const role = ROLES[value.toLowerCase() as keyof typeof ROLES];
  if (!role) throw new AppError("VALIDATION_FAILED", `--role must be viewer, operator or admin, got "${value}"`);
  return role;
}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new AppError("VALIDATION_FAILED", `${flag} is required`);
  return value;
}

runMain(main);

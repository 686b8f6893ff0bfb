/** `custodian members add|list --project <slug> ...`: a project's members from a terminal. */
import { AppError } from "@/lib/core/errors";
import type { RoleName } from "@/lib/core/permissions";
import { addMember, findProjectBySlug, listMembers } from "@/lib/server/admin";
import { CLI } from "@/lib/server/audit";

export const MEMBERS_USAGE = `  members add --project <slug> --email <email> --role viewer|operator|admin
                      Make a person a member of a project with a role there; someone without an
                      account gets one, with a one-time password printed once.
  members list --project <slug>
                      List a project's members and their roles.
`;

const ROLE_OF = { viewer: "VIEWER", operator: "OPERATOR", admin: "ADMIN" } as const satisfies Record<string, RoleName>;

function need(value: string | undefined, flag: string): string {
  if (!value) throw new AppError("VALIDATION_FAILED", `${flag} is required`);
  return value;
}

function roleOf(value: string | undefined): RoleName {
  const role = ROLE_OF[need(value, "--role").toLowerCase() as keyof typeof ROLE_OF];
  if (!role) throw new AppError("VALIDATION_FAILED", `--role must be viewer, operator or admin, got "${value}"`);
  return role;
}

/** Runs `members <action>`; what it prints goes through `print` (the terminal, or a test's list). */
export async function runMembersCommand(
  action: string | undefined,
  values: { project?: string; email?: string; role?: string },
  print: (line: string) => void = console.log,
): Promise<void> {
  if (action !== "add" && action !== "list")
    throw new AppError("INVALID_REQUEST", `Unknown command "members ${action ?? ""}". Run \`npm run custodian -- help\`.`);
  const project = await findProjectBySlug(need(values.project, "--project"));
  if (action === "add") {
    const role = roleOf(values.role);
    const added = await addMember({ projectId: project.id, email: need(values.email, "--email"), role }, CLI);
    print(`Added ${added.email} to ${project.slug} as ${role.toLowerCase()}.`);
    if (added.generatedPassword) print(`They had no account: one was created. Password (shown once): ${added.generatedPassword}`);
    return;
  }
  const members = await listMembers(project.id);
  for (const m of members) print(`${m.email}  ${m.role.toLowerCase()}  since ${m.since.toISOString().slice(0, 10)}`);
  if (members.length === 0) print(`No members in ${project.slug}.`);
}

import type { FormAction } from "@/lib/auth/define-action";
import { ROLES } from "@/lib/core/permissions";
import { ActionForm } from "./ActionForm";
import { Code } from "./Code";
import { humanize } from "./format";

/** The roles to choose from, in words, their codes as the values sent. */
export function RoleSelect({ name = "role", defaultValue }: { name?: string; defaultValue: string }) {
  return (
    <select name={name} defaultValue={defaultValue} aria-label="Role">
      {ROLES.map((r) => (
        <option key={r} value={r}>
          {humanize(r)}
        </option>
      ))}
    </select>
  );
}

/**
 * A person's role in a people table: a form to change it (the roles and Save) when `setRole` is
 * given, else the role in words (one's own role, or a viewer who may not change it).
 */
export function PersonRole({
  userId,
  role,
  label,
  setRole,
}: {
  userId: string;
  role: string;
  /** The form's accessible name, e.g. "Role of ana@example.com". */
  label: string;
  setRole: FormAction | null;
}) {
  if (!setRole) return <Code value={role} />;
  return (
    <ActionForm action={setRole} label={label} inline>
      <input type="hidden" name="userId" value={userId} />
      <RoleSelect defaultValue={role} />
      <button type="submit" className="button secondary small">
        Save
      </button>
    </ActionForm>
  );
}

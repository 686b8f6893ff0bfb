import type { ReactNode } from "react";
import { QueryProvider } from "@/components/QueryProvider";
import { SideNav } from "@/components/SideNav";
import { humanize } from "@/components/format";
import { requireUser } from "@/lib/auth/session";
import { can } from "@/lib/core/permissions";
import { signOutAction } from "@/app/login/actions";

/** Every dashboard page needs a signed-in person; the sign-in page lives outside this group. */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  return (
    <div className="shell">
      <SideNav canManage={can(user.role, "users:manage")}>
        <div className="who">
          <div>{user.email}</div>
          <div className="role">{humanize(user.role)}</div>
          <form action={signOutAction}>
            <button type="submit" className="link-button">
              Sign out
            </button>
          </form>
        </div>
      </SideNav>
      <main className="content">
        <QueryProvider>{children}</QueryProvider>
      </main>
    </div>
  );
}

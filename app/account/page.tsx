import Link from "next/link";
import { ActionForm } from "@/components/ActionForm";
import { NewPasswordField } from "@/components/NewPasswordField";
import { requireUser } from "@/lib/auth/session";
import { countSessions, MIN_PASSWORD_LENGTH } from "@/lib/server/admin";
import { changePasswordAction, signOutEverywhereAction } from "./actions";

export const metadata = { title: "Your account" };

/** The signed-in person's own account: change the password, end the sessions of other browsers. */
export default async function AccountPage() {
  const user = await requireUser();
  const sessions = await countSessions(user.id);
  return (
    <main id="main" className="content">
      <p>
        <Link href="/">← Dashboard</Link>
      </p>
      <h1>Your account</h1>
      <p className="subtitle">
        Signed in as {user.email}, with {sessions} open session{sessions === 1 ? "" : "s"} (this browser included).
      </p>
      <section className="panel" aria-label="Password" style={{ marginBottom: 16 }}>
        <h2 style={{ marginTop: 0 }}>Change your password</h2>
        <p>Every other browser signed in as you is signed out; this one stays signed in.</p>
        <ActionForm action={changePasswordAction} label="Change your password">
          <label>
            Current password
            <br />
            <input name="currentPassword" type="password" autoComplete="current-password" required maxLength={256} />
          </label>
          <NewPasswordField minLength={MIN_PASSWORD_LENGTH} />
          <button type="submit" className="button">
            Change password
          </button>
        </ActionForm>
      </section>
      <section className="panel" aria-label="Sessions">
        <h2 style={{ marginTop: 0 }}>Sign out everywhere else</h2>
        <p>Ends every session of yours but this browser's: a lost laptop, a shared computer.</p>
        <ActionForm action={signOutEverywhereAction} label="Sign out everywhere else">
          <button type="submit" className="button">
            Sign out everywhere else
          </button>
        </ActionForm>
      </section>
    </main>
  );
}

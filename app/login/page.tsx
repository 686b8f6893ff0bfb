import { redirect } from "next/navigation";
import { currentUser } from "@/lib/auth/session";
import { SignInForm } from "./SignInForm";

export const metadata = { title: "Sign in" };

export default async function LoginPage() {
  if (await currentUser()) redirect("/");
  return (
    <main id="main" className="login">
      <h1>Custodian</h1>
      <p className="subtitle">Sign in to see what your agents did, and what their transcripts still prove.</p>
      <div className="panel">
        <SignInForm />
      </div>
    </main>
  );
}

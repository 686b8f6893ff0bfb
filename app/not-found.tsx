import Link from "next/link";

export const metadata = { title: "Not found" };

/**
 * Every unknown address, and every page of a project the caller is not a member of: the same page,
 * so a stranger learns nothing about what exists.
 */
export default function NotFound() {
  return (
    <main id="main" className="status-page">
      <p className="status-code">404</p>
      <h1>There is nothing here</h1>
      <p className="subtitle">
        The page does not exist, or it belongs to a project you are not a member of. Ask a project admin to invite you if you
        expected to see it.
      </p>
      <p>
        <Link href="/" className="button">
          Go to your projects
        </Link>
      </p>
    </main>
  );
}

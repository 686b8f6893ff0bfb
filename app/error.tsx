"use client";

import { useEffect } from "react";

/**
 * A page that failed to render: say so plainly, offer a retry, and show the digest the server logged
 * (never the error's message, which may carry internals).
 */
export default function ErrorPage({
  error,
  retry,
}: {
  error: Error & { digest?: string };
  /** Fetches the page from the server again, then renders it (reset alone would only re-render what failed). */
  retry: () => void;
}) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <main id="main" className="status-page">
      <p className="status-code">Error</p>
      <h1>This page could not be shown</h1>
      <p className="subtitle">
        Nothing you submitted was lost: acts are written in one transaction or not at all. Try again; if it keeps failing, give
        your operator this reference.
      </p>
      {error.digest ? (
        <p>
          Reference: <code>{error.digest}</code>
        </p>
      ) : null}
      <p>
        <button type="button" className="button" onClick={() => retry()}>
          Try again
        </button>
      </p>
      <p data-testid="next-steps">
        If it fails again: wait a minute and retry (the database may be restarting), or go back to{" "}
        {/* A plain link: the app's router may be what failed. */}
        <a href="/">your projects</a>. An operator finds what went wrong in the server's log under the reference above, and can
        check <a href="/api/v1/health">the instance's health</a>.
      </p>
    </main>
  );
}

"use client";

import "./globals.css";

/** The root layout itself failed: the last resort, with its own html and body. */
export default function GlobalError({
  error,
  retry,
}: {
  error: Error & { digest?: string };
  /** Fetches the page from the server again, then renders it (reset alone would only re-render what failed). */
  retry: () => void;
}) {
  return (
    <html lang="en">
      <body>
        <main id="main" className="status-page">
          <p className="status-code">Error</p>
          <h1>Custodian could not show this page</h1>
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
        </main>
      </body>
    </html>
  );
}

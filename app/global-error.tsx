"use client";

import "./globals.css";

/** The root layout itself failed: the last resort, with its own html and body. */
export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
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
            <button type="button" className="button" onClick={() => reset()}>
              Try again
            </button>
          </p>
        </main>
      </body>
    </html>
  );
}

"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";

type Answer =
  | { kind: "done"; text: string }
  | { kind: "queued"; text: string }
  | { kind: "full"; text: string }
  | { kind: "error"; text: string };

/** What the upload route answered, in words for the person who sent the file. */
export function describeUploadAnswer(status: number, body: unknown, retryAfter: string | null): Answer {
  const json = (body ?? {}) as {
    outcome?: { spans?: number; sessions?: unknown[]; format?: string };
    job?: { queuePosition?: number | null };
    error?: { code?: string; message?: string };
  };
  if (status === 200 && json.outcome)
    return {
      kind: "done",
      text: `Imported ${json.outcome.spans ?? 0} spans in ${json.outcome.sessions?.length ?? 0} session(s) (${json.outcome.format}).`,
    };
  if (status === 202 && json.job) {
    const position = json.job.queuePosition;
    return {
      kind: "queued",
      text: `Accepted: the file imports in the background${position ? `, number ${position} in the queue` : ""}. It appears in the list below.`,
    };
  }
  if (status === 429 && json.error?.code === "IMPORT_QUEUE_FULL") {
    const seconds = Number(retryAfter);
    const wait = Number.isFinite(seconds) && seconds > 0 ? `in ${Math.ceil(seconds / 60)} minute(s)` : "later";
    return {
      kind: "full",
      text: `Not imported: ${json.error.message ?? "the import queue is full"}. Nothing was kept; send the file again ${wait}.`,
    };
  }
  return { kind: "error", text: `Not imported: ${json.error?.message ?? `the server answered ${status}`}.` };
}

/** The Imports page's upload form: sends the file to the project's upload route and says what became of it. */
export function ImportUpload({ slug }: { slug: string }) {
  const router = useRouter();
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [sending, setSending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const file = new FormData(event.currentTarget).get("file");
    if (!(file instanceof File) || file.size === 0) {
      setAnswer({ kind: "error", text: "Not imported: choose a transcript file first." });
      return;
    }
    setSending(true);
    setAnswer(null);
    try {
      const response = await fetch(`/api/dashboard/projects/${encodeURIComponent(slug)}/imports`, { method: "POST", body: file });
      const body = await response.json().catch(() => null);
      setAnswer(describeUploadAnswer(response.status, body, response.headers.get("retry-after")));
      if (response.ok) router.refresh();
    } catch {
      setAnswer({ kind: "error", text: "Not imported: the server could not be reached." });
    } finally {
      setSending(false);
    }
  }

  return (
    <form
      onSubmit={submit}
      aria-label="Import a transcript file"
      aria-busy={sending}
      style={{ display: "flex", gap: 8, alignItems: "end", flexWrap: "wrap" }}
    >
      <label>
        Transcript file
        <br />
        <input name="file" type="file" required />
      </label>
      <button type="submit" className="button" disabled={sending}>
        {sending ? "Importing…" : "Import"}
      </button>
      {answer ? (
        <span
          role={answer.kind === "done" || answer.kind === "queued" ? "status" : "alert"}
          className={answer.kind === "done" || answer.kind === "queued" ? undefined : "error-text"}
        >
          {answer.text}
        </span>
      ) : null}
    </form>
  );
}

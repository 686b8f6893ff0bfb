"use client";

import { type DragEvent, type FormEvent, useRef, useState } from "react";
import type { ImportListJson } from "@/lib/server/dashboard";
import { formatCount } from "./format";
import { ImportSessionLinks } from "./ImportSessionLinks";
import { RecordAccounting } from "./RecordAccounting";
import { uploadFile } from "./upload-file";

type Answer =
  | { kind: "done"; text: string }
  | { kind: "queued"; text: string }
  | { kind: "full"; text: string }
  | { kind: "error"; text: string };

interface Outcome {
  spans?: number;
  sessions?: Array<{ id?: string; externalId?: string }>;
  format?: string;
  records?: { read: number; used: number; ignored: number; skipped: number };
}

/** What the upload route answered, in words for the person who sent the file. */
export function describeUploadAnswer(status: number, body: unknown, retryAfter: string | null): Answer {
  const json = (body ?? {}) as {
    outcome?: Outcome;
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
      text: `Accepted: the file imports in the background${position ? `, number ${position} in the queue` : ""}.`,
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

type Row = ImportListJson["rows"][number];

/** One file of an upload, from its choosing to its outcome. */
interface Upload {
  key: number;
  name: string;
  size: number;
  sent: number;
  phase: "waiting" | "sending" | "importing" | "answered";
  answer?: Answer;
  /** The import's id (a background job's while it runs). */
  importId?: string;
  outcome?: Outcome;
}

/** Files sent at once: more only share the same connection and the same import queue. */
const AT_ONCE = 2;

function sessionLinks(outcome: Outcome | undefined): Array<{ id: string; externalId: string }> {
  return (outcome?.sessions ?? [])
    .filter((s): s is { id: string; externalId?: string } => typeof s.id === "string")
    .slice(0, 5)
    .map((s) => ({ id: s.id, externalId: s.externalId ?? s.id }));
}

/** Where one file stands, in words: sending, importing (a background job's spans so far), or its outcome. */
function UploadState({ upload, job, slug }: { upload: Upload; job: Row | undefined; slug: string }) {
  if (upload.phase === "waiting") return <span role="status">Waiting to send…</span>;
  if (upload.phase === "sending" || upload.phase === "importing") {
    const share = upload.size > 0 ? Math.round((100 * upload.sent) / upload.size) : 100;
    return (
      <span role="status">
        <progress max={100} value={share} aria-label={`${upload.name} sent`} />{" "}
        {upload.phase === "sending" ? `Sending: ${share}%` : "Importing…"}
      </span>
    );
  }
  const answer = upload.answer!;
  if (answer.kind === "queued") {
    if (job?.status === "DONE" && job.records)
      return (
        <span role="status">
          Imported {formatCount(job.spansDone)} spans in {job.sessions ?? 0} session(s) ({job.format}):{" "}
          <RecordAccounting records={job.records} />. Sessions:{" "}
          <ImportSessionLinks slug={slug} links={job.sessionLinks} total={job.sessions ?? 0} />
        </span>
      );
    if (job?.status === "FAILED")
      return (
        <span role="alert" className="error-text">
          Not imported: {job.error ?? "the import failed"}
        </span>
      );
    return (
      <span role="status">
        {answer.text}{" "}
        {job && job.spansTotal > 0 ? `Importing: ${formatCount(job.spansDone)} of ${formatCount(job.spansTotal)} spans.` : null}
      </span>
    );
  }
  if (answer.kind === "done")
    return (
      <span role="status">
        {answer.text}
        {upload.outcome?.records ? (
          <>
            {" "}
            <RecordAccounting records={upload.outcome.records} />.
          </>
        ) : null}{" "}
        Sessions:{" "}
        <ImportSessionLinks slug={slug} links={sessionLinks(upload.outcome)} total={upload.outcome?.sessions?.length ?? 0} />
      </span>
    );
  return (
    <span role="alert" className="error-text">
      {answer.text}
    </span>
  );
}

/**
 * The Imports page's upload: transcript files dropped on it or chosen with the file picker, several
 * at once, each sent to the project's upload route with its progress (bytes sent, then the
 * background job's spans) and then what became of it. `jobs` is the live list's rows, by id.
 */
export function ImportUpload({
  slug,
  jobs,
  onActivity,
}: {
  slug: string;
  jobs: Map<string, Row>;
  /** Called when the number of files still sending or importing within their request changes. */
  onActivity: (active: number) => void;
}) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const nextKey = useRef(1);
  const active = useRef(0);

  const update = (key: number, change: Partial<Upload>) =>
    setUploads((all) => all.map((u) => (u.key === key ? { ...u, ...change } : u)));

  async function send(upload: Upload, file: File) {
    update(upload.key, { phase: "sending" });
    try {
      const reply = await uploadFile(`/api/dashboard/projects/${encodeURIComponent(slug)}/imports`, file, (sent) =>
        update(upload.key, { sent, phase: sent >= file.size ? "importing" : "sending" }),
      );
      const body = reply.body as { outcome?: Outcome; importId?: string; job?: { id?: string } } | null;
      update(upload.key, {
        phase: "answered",
        answer: describeUploadAnswer(reply.status, reply.body, reply.retryAfter),
        importId: body?.importId ?? body?.job?.id,
        outcome: body?.outcome,
      });
    } catch {
      update(upload.key, {
        phase: "answered",
        answer: { kind: "error", text: "Not imported: the server could not be reached." },
      });
    }
  }

  function start(files: File[]) {
    const chosen = files.filter((f) => f.size > 0);
    if (chosen.length === 0) {
      setNotice("Not imported: choose a transcript file first (an empty file holds nothing to import).");
      return;
    }
    setNotice(null);
    const batch = chosen.map((file) => ({
      file,
      upload: { key: nextKey.current++, name: file.name, size: file.size, sent: 0, phase: "waiting" as const },
    }));
    setUploads(batch.map((b) => b.upload));
    active.current += batch.length;
    onActivity(active.current);
    const queue = [...batch];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        await send(next.upload, next.file);
        active.current -= 1;
        onActivity(active.current);
      }
    };
    void Promise.all(Array.from({ length: Math.min(AT_ONCE, batch.length) }, worker));
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const input = event.currentTarget.elements.namedItem("file") as HTMLInputElement | null;
    start([...(input?.files ?? [])]);
  }

  function drop(event: DragEvent<HTMLFieldSetElement>) {
    event.preventDefault();
    setDragging(false);
    start([...event.dataTransfer.files]);
  }

  const sending = uploads.some((u) => u.phase !== "answered");
  return (
    <form onSubmit={submit} aria-label="Import transcript files" aria-busy={sending}>
      <fieldset
        data-testid="import-drop-zone"
        className={`drop-zone${dragging ? " dragging" : ""}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
      >
        <legend>Drop transcript files here, or choose them</legend>
        <p style={{ margin: "0 0 8px" }}>
          Claude Code, Codex CLI, OpenHands, OpenTelemetry GenAI, SWE-agent, Gemini CLI or Aider; several at once.
        </p>
        <div style={{ display: "flex", gap: 8, alignItems: "end", flexWrap: "wrap" }}>
          <label>
            Transcript files
            <br />
            <input name="file" type="file" multiple />
          </label>
          <button type="submit" className="button" disabled={sending}>
            {sending ? "Importing…" : "Import"}
          </button>
        </div>
      </fieldset>
      {notice ? (
        <p role="alert" className="error-text">
          {notice}
        </p>
      ) : null}
      {uploads.length > 0 ? (
        <ul aria-label="Uploaded files" className="upload-list">
          {uploads.map((u) => (
            <li key={u.key} data-upload={u.name}>
              <span className="mono">{u.name}</span> ({formatCount(u.size)} bytes):{" "}
              <UploadState upload={u} job={u.importId ? jobs.get(u.importId) : undefined} slug={slug} />
            </li>
          ))}
        </ul>
      ) : null}
    </form>
  );
}

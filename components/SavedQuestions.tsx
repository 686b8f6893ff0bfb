import Link from "next/link";
import type { ActionResult } from "@/lib/core/action-result";
import { ActionForm } from "./ActionForm";

type Action = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

export interface SavedQuestionItem {
  id: string;
  title: string;
  createdBy: string;
}

/**
 * The project's saved questions (each a link that asks it again) and, under a custom question the
 * page has just answered, a form to save it under a title. Saving and deleting are for roles that
 * may; everyone who reads the project may ask them.
 */
export function SavedQuestions({
  saved,
  askHref,
  canWrite,
  customQuery,
  save,
  remove,
}: {
  saved: SavedQuestionItem[];
  /** The Evidence page asking saved question `id` (the scope of the page kept). */
  askHref: (id: string) => string;
  canWrite: boolean;
  /** The page's query string when it shows a custom question that could be saved; else null. */
  customQuery: string | null;
  save: Action;
  remove: Action;
}) {
  return (
    <section aria-label="Saved questions" className="panel" style={{ margin: "16px 0" }}>
      <h2 style={{ marginTop: 0 }}>Saved questions</h2>
      {saved.length === 0 ? (
        <p className="empty-state" style={{ padding: 8 }}>
          No saved questions yet.{canWrite ? " Build a custom question, ask it, then save it here under a title." : ""}
        </p>
      ) : (
        <ul style={{ paddingLeft: 18 }}>
          {saved.map((q) => (
            <li key={q.id} style={{ marginBottom: 6 }}>
              <Link href={askHref(q.id)}>{q.title}</Link> <span className="subtitle">saved by {q.createdBy}</span>
              {canWrite ? (
                <ActionForm action={remove} label={`Delete saved question ${q.title}`} inline>
                  <input type="hidden" name="id" value={q.id} />
                  <button type="submit" className="link-button">
                    Delete
                  </button>
                </ActionForm>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {canWrite && customQuery !== null ? (
        <ActionForm action={save} label="Save this question">
          <input type="hidden" name="query" value={customQuery} />
          <label>
            Title
            <br />
            <input name="title" required maxLength={200} placeholder="e.g. Did anyone touch the billing database?" />
          </label>
          <button type="submit" className="button secondary">
            Save this question
          </button>
        </ActionForm>
      ) : null}
    </section>
  );
}

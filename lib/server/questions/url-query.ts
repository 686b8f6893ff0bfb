import { AppError } from "@/lib/core/errors";
import { type AnsweredOrQueued, answerOrQueue, type AskHow } from "./answer-or-queue";
import type { EvidenceQueryInput } from "./ask";
import { evidenceQueryFromParams, scopeFromParams } from "./params";
import { LIST_REACH, type ListWindow } from "./present";
import { findSavedQuestion } from "./saved";

/** The prefix of a saved question's value of `q` in the Evidence page's URL. */
export const SAVED_PREFIX = "saved:";

/**
 * The Evidence page's URL as a question, saved questions included (`q=saved:<id>`, read from the
 * project's own saved questions: another project's id is a field error, as an unknown one is).
 */
export async function evidenceQueryFromUrl(projectId: string, params: URLSearchParams): Promise<EvidenceQueryInput | null> {
  const q = params.get("q") ?? "";
  if (!q.startsWith(SAVED_PREFIX)) return evidenceQueryFromParams(projectId, params);
  const saved = await findSavedQuestion(projectId, q.slice(SAVED_PREFIX.length)).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "NOT_FOUND")
      throw new AppError("VALIDATION_FAILED", "No such saved question in this project", {
        fields: [{ path: "q", message: "not a saved question of this project" }],
      });
    throw error;
  });
  return { projectId, question: { predicate: saved.predicate, title: saved.title }, scope: scopeFromParams(params) };
}

/**
 * Rows per page of citations and of blockers on the Evidence page: an answer over a whole project
 * can name tens of thousands of blocking spans (the export has them all).
 */
export const EVIDENCE_PAGE_ROWS = 100;

/** The page of each list the Evidence page's URL asks for (`cpage`, `bpage`, from 1), within LIST_REACH. */
export function evidencePageWindows(params: URLSearchParams): { citations: ListWindow; blockers: ListWindow } {
  const window = (name: string): ListWindow => {
    const n = Math.trunc(Number(params.get(name) ?? 1));
    const page = Number.isFinite(n) ? Math.min(Math.max(1, n), LIST_REACH / EVIDENCE_PAGE_ROWS) : 1;
    return { offset: (page - 1) * EVIDENCE_PAGE_ROWS, limit: EVIDENCE_PAGE_ROWS };
  };
  return { citations: window("cpage"), blockers: window("bpage") };
}

/**
 * The question the Evidence page's URL asks, answered with the pages it names, or handed to a job
 * the page polls (null when the URL asks nothing).
 */
export async function answerEvidencePage(
  projectId: string,
  params: URLSearchParams,
  requester: string,
  how: Omit<AskHow, "pages" | "async"> = {},
): Promise<AnsweredOrQueued | null> {
  const input = await evidenceQueryFromUrl(projectId, params);
  return input ? answerOrQueue(input, requester, { ...how, pages: evidencePageWindows(params) }) : null;
}

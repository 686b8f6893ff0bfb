import { AppError } from "@/lib/core/errors";
import type { EvidenceQueryInput } from "./ask";
import { evidenceQueryFromParams, scopeFromParams } from "./params";
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

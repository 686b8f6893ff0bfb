"use server";

import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { defineAction } from "@/lib/auth/define-action";
import { deleteSavedQuestion, evidenceQueryFromParams, SAVED_TITLE_MAX, saveQuestion } from "@/lib/server/questions";

/** The question builder's fields travel as the Evidence page's query string, as the page reads them. */
const SaveForm = z.object({ title: z.string().max(SAVED_TITLE_MAX), query: z.string().max(20_000) });
const DeleteForm = z.object({ id: z.uuid() });

/**
 * Saves the custom question on the page under a title: asked again by name from the question list,
 * and judged by the retention what-if beside the canned questions.
 */
export const saveQuestionAction = defineAction({
  permission: "questions:write",
  input: SaveForm,
  revalidate: ["/evidence", "/retention"],
  run: async ({ input, actor, project }) => {
    const asked = evidenceQueryFromParams(project.id, new URLSearchParams(input.query));
    if (!asked || !("predicate" in asked.question))
      throw new AppError("VALIDATION_FAILED", "Only a custom question can be saved", {
        fields: [{ path: "query", message: "build a custom question first" }],
      });
    const saved = await saveQuestion(project.id, { title: input.title, predicate: asked.question.predicate }, actor);
    return `Saved as “${saved.title}”.`;
  },
});

export const deleteSavedQuestionAction = defineAction({
  permission: "questions:write",
  input: DeleteForm,
  revalidate: ["/evidence", "/retention"],
  run: async ({ input, actor, project }) => {
    await deleteSavedQuestion(project.id, input.id, actor);
    return "Deleted the saved question.";
  },
});

/** Saved evidence questions' shapes: a title and a predicate exactly as POST /api/v1/evidence/query takes one. */
import { z } from "zod";
import { PredicateSchema, text, uuid } from "./schemas";

export const SavedQuestionCreateSchema = z
  .object({
    /** Unique in the project (a title already used is a 409); spaces around it are dropped. */
    title: text().trim().min(1).max(200),
    predicate: PredicateSchema,
  })
  .strict();

export const SavedQuestionSchema = z.object({
  id: uuid,
  title: z.string(),
  predicate: z.record(z.string(), z.unknown()),
  createdBy: z.string(),
  createdAt: z.string(),
});

export const SavedQuestionListSchema = z.object({ questions: z.array(SavedQuestionSchema) });

/**
 * Saved evidence questions: a predicate as POST /api/v1/evidence/query takes it, kept under a title
 * unique in its project, so reviewers ask it again and the retention what-if judges it beside the
 * canned questions. Saving and deleting are audited in the act's transaction.
 */
import { randomUUID } from "node:crypto";
import { AppError, type FieldError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { type EvidencePredicate, type EvidenceQuestion, validatePredicate } from "@/lib/evidence/questions";
import { type Actor, writeAudit } from "@/lib/server/audit";

export interface SavedQuestion {
  id: string;
  title: string;
  predicate: EvidencePredicate;
  createdBy: string;
  createdAt: Date;
}

/** Characters of a saved question's title, as the query API allows for a custom question's. */
export const SAVED_TITLE_MAX = 200;

type Row = { id: string; title: string; predicate: Prisma.JsonValue; createdBy: string; createdAt: Date };

const toSaved = (r: Row): SavedQuestion => ({
  id: r.id,
  title: r.title,
  predicate: r.predicate as EvidencePredicate,
  createdBy: r.createdBy,
  createdAt: r.createdAt,
});

/**
 * Saves a question under its title (trimmed). The predicate has passed the query API's schema at the
 * edge; here it is judged as a question is before it is asked (its patterns compile as RE2, its kinds
 * and outcomes exist), so a saved question can always be asked. A title already used in the project
 * is a CONFLICT naming `title`.
 */
export async function saveQuestion(
  projectId: string,
  input: { title: string; predicate: EvidencePredicate },
  actor: Actor,
): Promise<SavedQuestion> {
  if (!actor?.label) throw new Error("saveQuestion needs the actor who saves the question");
  const title = input.title.trim();
  const fields: FieldError[] = [];
  if (title.length === 0 || title.length > SAVED_TITLE_MAX)
    fields.push({ path: "title", message: `1-${SAVED_TITLE_MAX} characters, not only spaces` });
  if (input.predicate === null || typeof input.predicate !== "object" || Array.isArray(input.predicate))
    fields.push({ path: "predicate", message: "must be an object" });
  else fields.push(...validatePredicate(input.predicate).map((p) => ({ path: `predicate.${p.field}`, message: p.message })));
  if (fields.length > 0) throw new AppError("VALIDATION_FAILED", "The question cannot be saved", { fields });

  const predicate = input.predicate as Prisma.InputJsonObject;
  try {
    const row = await db().$transaction(async (tx) => {
      const created = await tx.savedQuestion.create({
        data: { id: randomUUID(), projectId, title, predicate, createdBy: actor.label },
      });
      await writeAudit(tx, {
        projectId,
        actor,
        act: "question.save",
        targetType: "saved_question",
        targetId: created.id,
        after: { title, predicate: input.predicate as Record<string, unknown> },
      });
      return created;
    });
    return toSaved(row);
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new AppError("CONFLICT", `A question titled "${title}" is already saved in this project`, {
        fields: [{ path: "title", message: "already used by another saved question" }],
      });
    }
    throw error;
  }
}

/** The project's saved questions by title. */
export async function listSavedQuestions(projectId: string): Promise<SavedQuestion[]> {
  const rows = await db().savedQuestion.findMany({ where: { projectId }, orderBy: [{ title: "asc" }, { id: "asc" }] });
  return rows.map(toSaved);
}

/** Deletes a saved question of the project; one of another project, or none, is NOT_FOUND. */
export async function deleteSavedQuestion(projectId: string, id: string, actor: Actor): Promise<void> {
  if (!actor?.label) throw new Error("deleteSavedQuestion needs the actor who deletes the question");
  if (!isUuid(id)) throw new AppError("NOT_FOUND", "Saved question not found");
  await db().$transaction(async (tx) => {
    const found = await tx.savedQuestion.findFirst({ where: { id, projectId } });
    if (!found) throw new AppError("NOT_FOUND", "Saved question not found");
    // Only the row read above: a concurrent delete of the same question leaves nothing to delete twice.
    const { count } = await tx.savedQuestion.deleteMany({ where: { id, projectId } });
    if (count === 0) throw new AppError("NOT_FOUND", "Saved question not found");
    await writeAudit(tx, {
      projectId,
      actor,
      act: "question.delete",
      targetType: "saved_question",
      targetId: id,
      before: { title: found.title, predicate: found.predicate as Record<string, unknown> },
    });
  });
}

/** One saved question of the project; one of another project, or none, is NOT_FOUND. */
export async function findSavedQuestion(projectId: string, id: string): Promise<SavedQuestion> {
  const row = isUuid(id) ? await db().savedQuestion.findFirst({ where: { id, projectId } }) : null;
  if (!row) throw new AppError("NOT_FOUND", "Saved question not found");
  return toSaved(row);
}

/** A saved question as the engine asks it (a one-predicate question under its title). */
export function savedAsQuestion(saved: SavedQuestion): EvidenceQuestion {
  return { id: saved.id, title: saved.title, anyOf: [saved.predicate] };
}

import { apiRoute } from "@/lib/api/route";
import { otherMethods } from "@/lib/api/respond";
import { SavedQuestionCreateSchema, SavedQuestionListSchema, SavedQuestionSchema } from "@/lib/api/saved-question-schemas";
import { listSavedQuestions, type SavedQuestion, saveQuestion } from "@/lib/server/questions";

export const dynamic = "force-dynamic";

const asJson = (q: SavedQuestion) => ({
  ...q,
  predicate: { ...q.predicate } as Record<string, unknown>,
  createdAt: q.createdAt.toISOString(),
});

/** The project's saved evidence questions, by title. */
export const GET = apiRoute({
  permission: "read",
  response: SavedQuestionListSchema,
  handler: async ({ caller }) => ({ questions: (await listSavedQuestions(caller.projectId)).map(asJson) }),
});

/** Saves a question under a title unique in the project (409 when it is taken); the retention what-if judges it too. */
export const POST = apiRoute({
  permission: "questions:write",
  body: SavedQuestionCreateSchema,
  response: SavedQuestionSchema,
  status: 201,
  handler: async ({ caller, body }) =>
    asJson(await saveQuestion(caller.projectId, body, { type: "API_KEY", id: caller.keyId, label: caller.label })),
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");

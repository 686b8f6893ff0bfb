/** The OpenAPI document's saved-question paths (GET/POST /api/v1/questions/saved, DELETE /api/v1/questions/saved/{id}). */
import { SavedQuestionCreateSchema, SavedQuestionListSchema, SavedQuestionSchema } from "./saved-question-schemas";
import { errors, json, ok, requestSchema, responseSchema } from "./openapi-parts";

export const savedQuestionPaths = {
  "/api/v1/questions/saved": {
    get: {
      summary: "The project's saved evidence questions, by title",
      responses: {
        "200": ok("Each question's id, title, predicate, who saved it and when", responseSchema(SavedQuestionListSchema)),
        ...errors(401, 403, 429),
      },
    },
    post: {
      summary:
        "Save an evidence question: a title unique in the project and a predicate as POST /api/v1/evidence/query takes it " +
        "(patterns are checked as when the question is asked); the retention what-if judges saved questions beside the canned ones",
      requestBody: { required: true, ...json(requestSchema(SavedQuestionCreateSchema)) },
      responses: {
        "201": ok("The saved question", responseSchema(SavedQuestionSchema)),
        ...errors(400, 401, 403, 409, 413, 422, 429),
      },
    },
  },
  "/api/v1/questions/saved/{id}": {
    delete: {
      summary: "Delete a saved evidence question",
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
      responses: {
        "204": { description: "Deleted" },
        ...errors(401, 403, 404, 429),
      },
    },
  },
};

/**
 * The OpenAPI document's evidence-question paths: asking (POST /api/v1/evidence/query), polling a
 * question's job (GET /api/v1/evidence/jobs/{id}), and saved questions (GET/POST
 * /api/v1/questions/saved, DELETE /api/v1/questions/saved/{id}).
 */
import { EvidenceAnswerSchema, EvidenceQuerySchema, QuestionJobAcceptedSchema, QuestionJobSchema } from "./evidence-schemas";
import { SavedQuestionCreateSchema, SavedQuestionListSchema, SavedQuestionSchema } from "./saved-question-schemas";
import { errors, json, ok, requestSchema, responseSchema } from "./openapi-parts";

export const evidenceQuestionPaths = {
  "/api/v1/evidence/query": {
    post: {
      summary: "Ask an evidence question over the project's sessions",
      requestBody: { required: true, ...json(requestSchema(EvidenceQuerySchema)) },
      responses: {
        "200": ok(
          "YES with citations, NO, or INSUFFICIENT_EVIDENCE with blockers: the page asked for of each list, with `pages` " +
            "saying where it starts and the offset of the next",
          responseSchema(EvidenceAnswerSchema),
        ),
        "202": ok(
          'Asked with "async", or still judging after 5 seconds: answered as a job (as GET /api/v1/evidence/jobs/{id} ' +
            "returns it); poll its Location",
          responseSchema(QuestionJobAcceptedSchema),
        ),
        ...errors(400, 401, 403, 404, 413, 422, 429),
      },
    },
  },
  "/api/v1/evidence/jobs/{id}": {
    get: {
      summary: "An evidence question answered in the background: its progress, then its answer or error",
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
      responses: {
        "200": ok(
          "RUNNING with progress, DONE with the answer as POST /api/v1/evidence/query returns it (the pages it was asked " +
            "with), or FAILED with the error. A DONE job whose answer was kept in an earlier form has a null answer and " +
            "an error asking to ask again",
          responseSchema(QuestionJobSchema),
        ),
        ...errors(401, 404, 429),
      },
    },
  },
};

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

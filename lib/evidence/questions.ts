/** Evidence-question semantics: predicates, canned questions, scope and answers. */
export * from "./questions/predicate";
export * from "./questions/canned";
export * from "./questions/scope";
export * from "./questions/answer";
export * from "./questions/completeness";
export * from "./questions/unknown-effects";

export { createApiKey, hashApiKey, revokeApiKey } from "./api-keys";
export { createProject, findProjectBySlug } from "./projects";
export { listProjectSettings } from "./settings";
export { createUser, listUsers, setUserRole } from "./users";

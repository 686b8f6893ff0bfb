export { createApiKey, hashApiKey, revokeApiKey } from "./api-keys";
export { createProject, findProjectBySlug } from "./projects";
export { listProjectSettings } from "./settings";
export { createUser, listUsers, setUserRole } from "./users";
export {
  clientAddress,
  consumeThrottle,
  refundThrottle,
  type ThrottleDecision,
  type ThrottleRule,
  throttleKey,
} from "./throttle";

export { createApiKey, hashApiKey, revokeApiKey } from "./api-keys";
export { createProject, findProjectBySlug, listProjects } from "./projects";
export { type AddedMember, addMember, listMembers, type ProjectMemberRow, removeMember, setMemberRole } from "./members";
export { findMembership, listProjectsOf, type Membership, projectHolding, type ProjectRef } from "./membership";
export { createUser, listUsers, setUserRole } from "./users";
export { changeOwnPassword, countSessions, endOtherSessions, MIN_PASSWORD_LENGTH, setPasswordOf } from "./passwords";
export {
  clientAddress,
  consumeThrottle,
  refundThrottle,
  type ThrottleDecision,
  type ThrottleRule,
  throttleKey,
  throttleRules,
} from "./throttle";

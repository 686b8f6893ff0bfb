export { expiriesByWeek, listAtRiskOriginals } from "./at-risk";
export { loadCannedQuestions, loadPolicy, parseCannedOverrides, updatePolicy } from "./policy";
export { policyFromRow, policyToRow } from "./policy-row";
export { applyPolicyPatch, diffPolicies, isNarrowing, type PolicyFieldChange, type PolicyPatch } from "./policy-diff";
export {
  currentPolicy,
  listPolicyVersions,
  policyOfVersion,
  type PolicyVersion,
  rollbackPolicy,
  type SavedPolicy,
  savePolicyVersion,
} from "./versions";
export { listRetentionProjects } from "./projects";
export { type StorageFigures, storageFigures } from "./storage";
export { type SweepResult, sweep } from "./sweeper";

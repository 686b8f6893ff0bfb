export { expiriesByWeek, listAtRiskOriginals } from "./at-risk";
export { loadCannedQuestions, loadPolicy, policyFromRow, policyToRow, updatePolicy } from "./policy";
export { type SweepResult, sweep } from "./sweeper";

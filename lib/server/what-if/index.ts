export type { QuestionChange } from "./questions";
export {
  type ByClass,
  DEFAULT_HORIZON_DAYS,
  MAX_HORIZON_DAYS,
  type PolicyOutlook,
  REPLAY_DAYS,
  type SimulatedDay,
  type Simulation,
  simulateRetention,
} from "./simulate";
export { whatIfQueriesToExplain } from "./explain";

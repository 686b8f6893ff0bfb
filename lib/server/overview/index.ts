export { type ProjectOverview, projectOverview, projectOverviewStatements } from "./overview";
export {
  DEFAULT_OVERVIEW_RANGE,
  OVERVIEW_RANGES,
  type OverviewRange,
  type OverviewWindow,
  overviewWindow,
  parseOverviewRange,
} from "./range";
export type { AtRiskAhead } from "./at-risk-ahead";

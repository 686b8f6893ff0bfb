export { type ProjectOverview, projectOverview, projectOverviewStatements } from "./overview";
export {
  DEFAULT_OVERVIEW_RANGE,
  MAX_OVERVIEW_DAYS,
  type OverviewDays,
  OVERVIEW_RANGES,
  type OverviewRange,
  type OverviewWindow,
  overviewWindow,
  parseOverviewRange,
  parseOverviewView,
} from "./range";
export type { AtRiskAhead } from "./at-risk-ahead";

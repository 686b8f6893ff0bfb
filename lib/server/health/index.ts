export { checkHealth } from "./health";

export { closeInterruptedJobs, startBackgroundWork } from "./schedule";
export { type MaintenanceResult, runMaintenance } from "./sweep";

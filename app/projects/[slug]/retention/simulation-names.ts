import { sessionNames } from "@/lib/server/dashboard";
import type { Simulation } from "@/lib/server/what-if";

/** The names of the sessions a simulation lists (its changed answers, its sessions by day), by id. */
export function simulationSessionNames(projectId: string, simulation: Simulation): Promise<Record<string, string>> {
  const { current, proposed } = simulation;
  return sessionNames(projectId, [
    ...current.questionsAffected.map((q) => q.sessionId),
    ...proposed.questionsAffected.map((q) => q.sessionId),
    ...proposed.sessions.map((s) => s.sessionId),
  ]);
}

import { env } from "@/lib/core/env";
import { LIMITS } from "./schemas";

/** A transcript upload's limits: the largest file, and the largest imported within its request. */
export function importLimits(): { maxBytes: number; syncBytes: number } {
  // The synchronous limit is overridable so that tests can exercise the background path with a small file.
  return { maxBytes: LIMITS.maxImportBytes, syncBytes: env().CUSTODIAN_SYNC_IMPORT_BYTES ?? LIMITS.syncImportBytes };
}

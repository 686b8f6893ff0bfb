import { EnvError } from "@/lib/core/env";
import { AppError } from "@/lib/core/errors";
import { StartupError } from "@/lib/db/startup-error";

/**
 * Runs a command's main function. Known failures (bad configuration, bad input) end with one clear
 * line and a non-zero exit; only a bug prints a stack trace.
 */
export function runMain(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    if (error instanceof StartupError || error instanceof AppError || error instanceof EnvError) {
      const fields =
        error instanceof AppError && error.fields ? ` (${error.fields.map((f) => `${f.path}: ${f.message}`).join("; ")})` : "";
      console.error(`custodian: ${error.message}${fields}`);
    } else {
      console.error(error);
    }
    process.exit(1);
  });
}

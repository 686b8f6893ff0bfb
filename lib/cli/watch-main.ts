/** `custodian watch ...`: the watcher over the local database, and its service installer. */
import { parseArgs } from "node:util";
import { prepareDatabase } from "@/lib/db/bootstrap";
import { disconnectDb } from "@/lib/db/client";
import { runWatch, WATCH_USAGE, watchOptions } from "./watch-command";
import { installService, servicePlatform } from "./watch-install";

export { WATCH_USAGE };

export async function runWatchCommand(args: string[]): Promise<void> {
  if (args[0] === "install") {
    const { values } = parseArgs({
      args: args.slice(1),
      options: {
        "dry-run": { type: "boolean" },
        project: { type: "string" },
        home: { type: "string" },
        platform: { type: "string" },
      },
    });
    const file = installService(
      {
        platform: servicePlatform(values.platform),
        project: values.project ?? "demo",
        ...(values.home ? { watchHome: values.home } : {}),
        ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
      },
      values["dry-run"] ?? false,
    );
    console.log(`${file.written ? "Wrote" : "Would write"} ${file.path}:\n${file.text}`);
    console.log(`${file.written ? "Start it with" : "Then start it with"}: ${file.start}`);
    return;
  }
  const options = watchOptions(args);
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  const database = await prepareDatabase();
  try {
    await runWatch({ ...options, signal: controller.signal });
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    await disconnectDb();
    await database.stop();
  }
}

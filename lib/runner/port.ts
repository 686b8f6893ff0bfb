import { createServer } from "node:net";
import { StartupError } from "@/lib/db/startup-error";

/** Fails early, in one line, when the web port is taken, before anything else starts. */
export async function assertPortFree(port: number, host: string): Promise<void> {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new StartupError(`PORT must be 1-65535, got "${port}".`);
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        new StartupError(
          error.code === "EADDRINUSE"
            ? `Port ${port} on ${host} is in use: stop what uses it or run with PORT=<another port>.`
            : `Cannot listen on ${host}:${port} (${error.code ?? error.message}).`,
        ),
      );
    });
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

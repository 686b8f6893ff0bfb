/**
 * The web server process `npm start` (and the browser tests) run: the built app, or the development
 * server with --dev, on PORT and HOST, each request's address taken from its connection (see
 * lib/runner/serve-next.ts).
 */
import { env } from "@/lib/core/env";
import { runMain } from "@/lib/runner/run-main";
import { serveNext } from "@/lib/runner/serve-next";

runMain(async () => {
  const dev = process.argv.includes("--dev");
  const { PORT: port, HOST: host } = env();
  await serveNext({ dev, port, host });
  console.log(`Serving on http://${host}:${port}${dev ? " (development)" : ""}`);
});

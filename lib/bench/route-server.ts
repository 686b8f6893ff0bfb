/**
 * The evidence question's route handler (and health) served on node:http, for the questions
 * benchmark where no production build of the dashboard exists: the same handler, authentication,
 * validation and JSON as `next start` serves, without Next.js's router. Work the handler hands to
 * after() (keeping verdicts) runs once the response is sent, as under `next start`.
 *
 * Run as a process of its own: `tsx lib/bench/route-server.ts <port>`, with DATABASE_URL set.
 */
import { createServer } from "node:http";
import { GET as health } from "@/app/api/v1/health/route";
import { POST as ask } from "@/app/api/v1/evidence/query/route";
import { inRequestScope } from "@/lib/fuzz/request-scope";

const port = Number(process.argv[2]);

const server = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const url = `http://127.0.0.1:${port}${req.url ?? "/"}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  const request = new Request(url, {
    method: req.method ?? "GET",
    headers,
    ...(req.method === "POST" ? { body: Buffer.concat(chunks) } : {}),
  });
  const later: Array<() => unknown> = [];
  const path = new URL(url).pathname;
  let response: Response;
  try {
    if (path === "/api/v1/health" && req.method === "GET") response = await health();
    else if (path === "/api/v1/evidence/query" && req.method === "POST")
      response = await inRequestScope(request, path, () => ask(request, { params: Promise.resolve({}) }), {
        after: (task) => later.push(task),
      });
    else response = new Response("not served here", { status: 404 });
  } catch (error) {
    response = new Response(String(error), { status: 500 });
  }
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(body, () => {
    for (const task of later)
      Promise.resolve()
        .then(task)
        .catch((error: unknown) => console.error("Work after the response failed", error));
  });
});
server.listen(port, "127.0.0.1");

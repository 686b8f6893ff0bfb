/**
 * A local HTTP listener that hands every request to one route handler, as Next.js would: for tests
 * that drive a real client (a compaction hook, the MCP SDK's client, an OpenTelemetry exporter)
 * against a route without starting the whole server.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { RouteHandler } from "./call";

export interface RouteListener {
  /** http://127.0.0.1:<port> */
  url: string;
  close(): Promise<void>;
}

/** What a test may note of each exchange: the request as the handler got it, and the answer's bytes. */
export type Exchange = (request: Request, response: Response, body: Buffer) => void;

export async function listenWith(handler: RouteHandler, observe?: Exchange): Promise<RouteListener> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const request = new Request(`http://custodian.test${req.url}`, {
      method: req.method,
      headers,
      body: req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks),
    });
    const response = await handler(request, { params: Promise.resolve({}) });
    const body = Buffer.from(await response.arrayBuffer());
    observe?.(request, response, body);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

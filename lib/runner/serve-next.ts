import { createServer, type IncomingMessage, type Server } from "node:http";
import next from "next";
import { CLIENT_ADDRESS_HEADER, stampedAddress } from "@/lib/core/client-address";
import { env } from "@/lib/core/env";

/**
 * The web server: Next.js's request handler behind a plain node:http server of our own, so that
 * each request's address can be taken from its connection. `next start` passes a client's own
 * X-Forwarded-For on unchanged (it fills the header in only when absent), so a client that talks
 * to it directly could name any address it likes and slip past every per-address throttle.
 */

/**
 * What the server does to every request before the app sees it: whatever the client sent as
 * CLIENT_ADDRESS_HEADER is dropped, and the address resolved from the socket's peer (and
 * X-Forwarded-For, only when the peer is a trusted proxy) is written in its place.
 */
export function stampRequest(request: Pick<IncomingMessage, "headers" | "rawHeaders" | "socket">): void {
  const forwarded = request.headers["x-forwarded-for"];
  const address = stampedAddress(
    request.socket.remoteAddress,
    Array.isArray(forwarded) ? forwarded.join(",") : forwarded,
    env().CUSTODIAN_TRUSTED_PROXIES,
  );
  delete request.headers[CLIENT_ADDRESS_HEADER];
  // The raw list too, for any reader that builds its headers from it.
  for (let i = request.rawHeaders.length - 2; i >= 0; i -= 2)
    if (request.rawHeaders[i]!.toLowerCase() === CLIENT_ADDRESS_HEADER) request.rawHeaders.splice(i, 2);
  request.headers[CLIENT_ADDRESS_HEADER] = address;
  request.rawHeaders.push(CLIENT_ADDRESS_HEADER, address);
}

export interface ServeOptions {
  dev: boolean;
  port: number;
  host: string;
  /** The app's root (where .next is); the working directory by default. */
  dir?: string;
}

/** Serves the app (the production build, or the development server) until the process ends. */
export async function serveNext(options: ServeOptions): Promise<Server> {
  const app = next({ dev: options.dev, dir: options.dir ?? process.cwd(), hostname: options.host, port: options.port });
  const handle = app.getRequestHandler();
  await app.prepare();
  const server = createServer((request, response) => {
    stampRequest(request);
    handle(request, response).catch((error: unknown) => {
      console.error("Request failed", error);
      if (!response.headersSent) response.writeHead(500, { "content-type": "application/json" });
      response.end('{"error":{"code":"INTERNAL","message":"Internal error"}}');
    });
  });
  // The development server's live reload rides on WebSocket upgrades.
  if (options.dev) {
    const upgrade = app.getUpgradeHandler();
    server.on("upgrade", (request, socket, head) => {
      stampRequest(request);
      void upgrade(request, socket, head);
    });
  }
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return server;
}

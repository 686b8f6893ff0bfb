import { request as httpRequest } from "node:http";

export interface Sent {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One HTTP request to the e2e server from a loopback address of the test's choosing (the socket's
 * own address, which no header can change): a browser context cannot pick its source address.
 */
export function sendFrom(
  localAddress: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Sent> {
  const url = new URL(path, `http://127.0.0.1:${process.env.E2E_PORT}`);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? "GET", headers: options.headers, localAddress, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** A loopback address no other test sends from, for a test that exhausts a per-address limit. */
export function loopbackAddress(): string {
  return `127.${10 + Math.floor(Math.random() * 60)}.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`;
}

/** A made-up public address, different each call, as a forger writes in X-Forwarded-For. */
export function forgedAddress(i: number): string {
  return `203.0.${Math.floor(i / 250) % 250}.${(i % 250) + 1}`;
}

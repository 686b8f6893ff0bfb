/**
 * The hooks' one request: a JSON POST over node:http. Not fetch: Node loads fetch's HTTP client
 * (undici) on first use, tens of milliseconds of every hook's start-up for one request.
 */
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";

export interface JsonResponse {
  status: number;
  /** The body read as JSON; null when it is not JSON. */
  json: unknown;
}

/** Rejects with the socket's error (its `code` says why: ECONNREFUSED, ENOTFOUND...) or an AbortError. */
export function postJson(url: URL, key: string, body: unknown, signal: AbortSignal): Promise<JsonResponse> {
  const payload = Buffer.from(JSON.stringify(body));
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "content-length": payload.byteLength,
          authorization: `Bearer ${key}`,
        },
        signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          let json: unknown = null;
          try {
            json = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          } catch {
            json = null;
          }
          resolve({ status: res.statusCode ?? 0, json });
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

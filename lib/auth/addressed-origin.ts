/**
 * The origins a request was addressed to: its own host (x-forwarded-host behind a proxy, else Host)
 * under the protocol it came in on. A sign-in form served from that address posts with that Origin,
 * whatever name the server was started under (127.0.0.1 or localhost, a LAN address, a proxy's
 * name); a page on another site cannot send that Host with a browser, so foreign origins stay refused.
 */
export function addressedOrigins(request: Request | undefined): string[] {
  if (!request) return [];
  const host = (request.headers.get("x-forwarded-host") ?? request.headers.get("host") ?? "").split(",")[0]!.trim().toLowerCase();
  if (!host || !/^[a-z0-9.[\]:-]+$/.test(host)) return [];
  const forwarded = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  let own: string | null = null;
  try {
    own = new URL(request.url).protocol.replace(":", "");
  } catch {
    // A request without a parseable URL contributes only the forwarded protocol.
  }
  const protocols = new Set([forwarded, own].filter((p): p is string => p === "http" || p === "https"));
  return [...protocols].map((protocol) => `${protocol}://${host}`);
}

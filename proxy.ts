import { type NextRequest, NextResponse } from "next/server";

/**
 * A Content-Security-Policy for every page, with a nonce of its own per request: Next.js reads the
 * nonce from the request's policy and puts it on its scripts, so only those run ('strict-dynamic'
 * lets them load the app's chunks). Styles allow inline attributes: React renders `style` props
 * as attributes, which a nonce cannot cover; scripts are what the policy is for. API routes are not
 * matched here (their fixed policy is in next.config.ts, and a proxy would buffer their bodies).
 */
export function proxy(request: NextRequest) {
  const refused = refuseForeignAction(request);
  if (refused) return refused;
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString("base64");
  // React's development build evaluates code to rebuild server stack traces; production never does.
  const devEval = process.env.NODE_ENV === "development" ? " 'unsafe-eval'" : "";
  const policy = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${devEval}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

/**
 * A POST naming another site in its Origin (or an Origin that is no URL) is refused here, before
 * Next.js sees it: its own check for server actions answers such a request with a 500 (and a
 * malformed Origin throws in it). The host compared is the one the request was addressed to, as
 * Next.js and defineAction read it. A request with no Origin goes on: defineAction refuses it with
 * its code, and the sign-in form with its message.
 */
function refuseForeignAction(request: NextRequest): NextResponse | null {
  if (request.method !== "POST") return null;
  const origin = request.headers.get("origin");
  if (origin === null) return null;
  const addressed = (request.headers.get("x-forwarded-host") ?? request.headers.get("host") ?? "")
    .split(",")[0]!
    .trim()
    .toLowerCase();
  const originHost = URL.canParse(origin) && origin !== "null" ? new URL(origin).host.toLowerCase() : null;
  if (originHost !== null && addressed !== "" && originHost === addressed) return null;
  return NextResponse.json(
    { error: { code: "FORBIDDEN", message: "Refused: the request comes from another site" } },
    { status: 403 },
  );
}

export const config = {
  // Everything but the API and static files.
  matcher: ["/((?!api/|_next/static|_next/image|favicon.ico).*)"],
};

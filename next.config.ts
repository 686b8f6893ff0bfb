import type { NextConfig } from "next";

/** Sent with every response, pages and API alike (a page's Content-Security-Policy comes from proxy.ts, with its nonce). */
const SECURITY_HEADERS = [
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
];

/** API answers are JSON or bytes, never documents: nothing in them may load, run or be framed. */
const API_CONTENT_SECURITY_POLICY =
  "default-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const config: NextConfig = {
  // Database drivers and the embedded Postgres load native-ish assets at run time: keep them out of the bundle.
  // The MCP SDK v2 server chooses its runtime shims by package export conditions: Node loads it, as in the tests.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "pg",
    "pg-copy-streams",
    "@prisma/adapter-pg",
    "@modelcontextprotocol/server",
  ],
  poweredByHeader: false,
  // Type checking is `npm run typecheck` (the first step of `npm test`); `npm start` need not repeat it.
  typescript: { ignoreBuildErrors: true },
  typedRoutes: false,
  async headers() {
    return [
      { source: "/(.*)", headers: SECURITY_HEADERS },
      { source: "/api/(.*)", headers: [{ key: "Content-Security-Policy", value: API_CONTENT_SECURITY_POLICY }] },
    ];
  },
};

export default config;

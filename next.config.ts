import type { NextConfig } from "next";

const config: NextConfig = {
  // Database drivers and the embedded Postgres load native-ish assets at run time: keep them out of the bundle.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "pg", "pg-copy-streams", "@prisma/adapter-pg"],
  poweredByHeader: false,
  // Type checking is `npm run typecheck` (the first step of `npm test`); `npm start` need not repeat it.
  typescript: { ignoreBuildErrors: true },
  typedRoutes: false,
};

export default config;

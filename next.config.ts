import type { NextConfig } from "next";

const config: NextConfig = {
  // Database drivers and the embedded Postgres load native-ish assets at run time: keep them out of the bundle.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "pg", "@prisma/adapter-pg"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default config;

/**
 * The layers of lib/README.md, enforced: imports only point down, features are entered through
 * their index, and no module imports itself back through a cycle. `npm run lint` runs this.
 * Tests may reach into what they test (a feature's internals, a route handler), so the layer rules
 * exempt them; cycles are forbidden everywhere.
 */
const TEST = "\\.test\\.ts$";
const TOOLING = "lib/(cli|bench|scale|demo|runner)/";
/**
 * Test support: kits, workloads, recounts and fixtures named `testkit.ts`, `*-testkit.ts`,
 * `*.testkit.ts` or `test-*.ts`. It lives beside what it tests and serves tests and tooling only.
 */
const TEST_SUPPORT = "(^|/)(testkit|[^/]+[.-]testkit|test-[^/]+)\\.ts$";

/** A rule forbidding non-test modules under `from` to import anything matching `to`. */
function layer(name, comment, from, to, extra = {}) {
  return { name, comment, severity: "error", from: { path: from, pathNot: TEST }, to: { path: to, ...extra } };
}

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "A cycle makes load order matter and layers meaningless.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    layer("core-is-the-bottom", "lib/core (errors, ids, hashing, validation) imports nothing of the project.", "^lib/core/", "^(app|components|lib/(?!core/))"),
    layer(
      "evidence-is-pure",
      "The domain core is pure: it may use lib/core and itself, never I/O layers.",
      "^lib/evidence/",
      "^(app|components|lib/(api|auth|server|db|importers)/|" + TOOLING + ")",
    ),
    layer(
      "importers-are-pure",
      "Importers map bytes to spans: the domain core and lib/core only.",
      "^lib/importers/",
      "^(app|components|lib/(api|auth|server|db)/|" + TOOLING + ")",
    ),
    layer(
      "importer-formats-stand-alone",
      "Each format's reader (lib/importers/<format>/) builds on lib/importers/shared, never on another format.",
      "^lib/importers/(?!shared/)([^/]+)/",
      "^lib/importers/",
      { pathNot: "^lib/importers/($1|shared)/" },
    ),
    layer("importer-shared-knows-no-format", "lib/importers/shared is what every format builds on: it imports none of them.", "^lib/importers/shared/", "^lib/importers/(?!shared/)"),
    layer("db-below-features", "lib/db is the client and migrations: it knows no feature.", "^lib/db/", "^(app|components|lib/(api|auth|server|evidence|importers)/|" + TOOLING + ")"),
    layer("server-below-edge", "Use cases never import the HTTP edge, the UI or tooling.", "^lib/server/", "^(app|components|lib/(api|auth)/|" + TOOLING + ")"),
    layer("edge-below-app", "lib/api and lib/auth serve app/: they import no page, component or tooling.", "^lib/(api|auth)/", "^(app|components|" + TOOLING + ")"),
    layer(
      "components-have-no-data-access",
      "React components render what they are given: no use case, database or HTTP edge.",
      "^components/",
      "^(app|lib/(api|auth|server|db|importers)/|" + TOOLING + ")",
      // Naming the shape of what they are given (a type-only import) is not data access.
      { dependencyTypesNot: ["type-only"] },
    ),
    {
      name: "test-support-stays-out-of-production",
      comment: "Test kits and fixtures serve tests and tooling: no page, route, component or use case imports them.",
      severity: "error",
      from: { pathNot: `${TEST}|${TEST_SUPPORT}|^(e2e|lib/(cli|bench|scale|fuzz))/` },
      to: { path: TEST_SUPPORT },
    },
    layer(
      "components-use-no-route-folder",
      "A component names what it is given itself (or through lib/): nothing under app/, not even a type.",
      "^components/",
      "^app/",
    ),
    layer("app-uses-use-cases", "Routes are thin: they reach data through lib/server, never the client directly.", "^app/", "^lib/(db|bench|scale|cli|runner)/"),
    layer("runner-is-process-plumbing", "lib/runner (run a main, build, find a port) knows no feature.", "^lib/runner/", "^(app|components|lib/(api|auth|server|evidence|importers|cli|bench|scale|demo)/)"),
    {
      name: "tooling-on-top",
      comment: "The CLI and the benchmarks are entry points: nothing imports them.",
      severity: "error",
      from: { pathNot: "^lib/(cli|bench)/" },
      to: { path: "^lib/(cli|bench)/" },
    },
    {
      name: "scale-for-benchmarks",
      comment: "The scale seed is tooling for benchmarks and the CLI.",
      severity: "error",
      from: { pathNot: "^lib/(cli|bench|scale)/" },
      to: { path: "^lib/scale/" },
    },
    {
      name: "feature-through-index",
      comment: "A feature folder of lib/server is entered through its index.ts only.",
      severity: "error",
      from: { path: "^lib/server/([^/]+)/", pathNot: TEST },
      to: { path: "^lib/server/[^/]+/(?!index\\.ts$)", pathNot: "^lib/server/$1/" },
    },
    {
      name: "feature-through-index-from-outside",
      comment:
        "Outside lib/server, features are reached through their index.ts only; their test support (which no production module may import) directly.",
      severity: "error",
      from: { pathNot: "^lib/server/|" + TEST },
      to: { path: "^lib/server/[^/]+/(?!index\\.ts$)", pathNot: TEST_SUPPORT },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|lib/db/generated|\\.next)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".mjs", ".json"] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};

/** The words the scale seed's transcripts are made of: people, repositories, files, packages, services. */

export const USERS = ["dev", "alice", "bmartin", "ci", "runner", "sam", "yuki", "priya", "ops"];

export const REPOS = [
  "shop-api",
  "billing",
  "web-app",
  "ingest-worker",
  "mobile-bff",
  "infra",
  "data-pipeline",
  "auth-service",
  "search",
  "docs-site",
];

export const TICKETS = ["SHOP", "BILL", "WEB", "ING", "OPS", "AUTH", "DATA", "SRCH"];

export const TOPICS = [
  "fix the flaky checkout test",
  "add pagination to the orders endpoint",
  "upgrade the ORM and fix the deprecations",
  "investigate the memory leak in the worker",
  "migrate the config loader to YAML",
  "add rate limiting to the public API",
  "speed up the CI pipeline",
  "rename the billing events and update consumers",
  "provision the staging box",
  "write integration tests for the webhook handler",
  "bump dependencies and fix the broken build",
  "add structured logging to the ingest path",
];

export const DIRS = [
  "src",
  "src/routes",
  "src/services",
  "src/lib",
  "lib",
  "lib/server",
  "app",
  "components",
  "tests",
  "tests/integration",
  "scripts",
  "config",
  "internal/store",
  "cmd/api",
  "packages/core/src",
  "migrations",
];

export const NAMES = [
  "index",
  "server",
  "config",
  "utils",
  "handler",
  "routes",
  "schema",
  "client",
  "worker",
  "store",
  "parser",
  "auth",
  "billing",
  "session",
  "queue",
  "cache",
  "orders",
  "checkout",
  "webhook",
  "logger",
  "ratelimit",
  "pagination",
];

export const EXTS = [".ts", ".ts", ".ts", ".tsx", ".py", ".go", ".json", ".yaml", ".md", ".sql"];

export const VOCAB =
  "the a to of and in that is for it with as on this be are was by at or from which but have has can will we function value file test error config module request response server client data type return import export const async update change check run build handler route query cache user session token retry timeout field schema migration parser result output input state logic branch case path option default".split(
    " ",
  );

export const NPM_PKGS = [
  "zod@4.1.0",
  "lodash@4.17.21",
  "vitest@4.1.12",
  "pino@9.4.0",
  "date-fns@4.1.0",
  "undici@7.2.0",
  "@types/node@20.19.0",
];

export const PIP_PKGS = ["requests==2.32.3", "pydantic==2.9.2", "pytest==8.3.3", "sqlalchemy==2.0.36", "httpx==0.27.2"];

export const APT_PKGS = ["nginx", "jq", "postgresql-client", "ripgrep", "redis-server", "build-essential"];

export const SERVICES = ["nginx", "postgresql", "redis-server", "app-worker", "docker"];

export const SYSTEM_FILES = [
  "/etc/nginx/conf.d/app.conf",
  "/etc/hosts",
  "/etc/app/conf.yaml",
  "/etc/systemd/system/app-worker.service",
  "/usr/local/bin/deploy.sh",
  "/etc/cron.d/cleanup",
  "/var/lib/app/state.json",
];

export const DOTFILES = ["~/.bashrc", "~/.zshrc", "~/.gitconfig", "~/.npmrc", "~/.ssh/config", "~/.profile"];

/**
 * Route handlers that read the caller through Next.js's request APIs (`headers()`, `cookies()`:
 * the dashboard's own routes, through the sign-in library) need the request scope Next.js sets up
 * around them. Called in process, they get a minimal one: the request's headers and cookies,
 * nothing prerendered, nothing cached.
 */
import "./next-runtime";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
type Storage = { run<T>(store: unknown, fn: () => T): T };
const { workAsyncStorage } = require("next/dist/server/app-render/work-async-storage.external.js") as {
  workAsyncStorage: Storage;
};
const { workUnitAsyncStorage } = require("next/dist/server/app-render/work-unit-async-storage.external.js") as {
  workUnitAsyncStorage: Storage;
};
const { RequestCookies } = require("next/dist/compiled/@edge-runtime/cookies/index.js") as {
  RequestCookies: new (headers: Headers) => unknown;
};

/**
 * `after`: where work a handler hands to Next.js's after() goes (a server that sends the response
 * first, then runs it); without it after() finds no place and the caller's fallback runs the work.
 */
export function inRequestScope<T>(
  request: Request,
  route: string,
  fn: () => Promise<T>,
  options: { after?: (task: () => unknown) => void } = {},
): Promise<T> {
  const cookies = new RequestCookies(request.headers);
  const workStore = {
    route,
    page: route,
    isStaticGeneration: false,
    forceStatic: false,
    forceDynamic: true,
    dynamicShouldError: false,
    isDraftMode: false,
    pendingRevalidates: {},
    pendingRevalidateWrites: [],
    pendingRevalidatedTags: [],
    // What revalidatePath() needs to find (a server action revalidates the pages it changed); it
    // only records the paths there, and nothing is cached in process.
    incrementalCache: {},
    ...(options.after ? { afterContext: { after: options.after } } : {}),
  };
  const requestStore = {
    type: "request",
    phase: "action",
    url: { pathname: new URL(request.url).pathname, search: new URL(request.url).search },
    headers: request.headers,
    cookies,
    mutableCookies: cookies,
    userspaceMutableCookies: cookies,
    draftMode: { isEnabled: false },
    implicitTags: { tags: [], expirationsByCacheKind: new Map() },
  };
  try {
    return workAsyncStorage.run(workStore, () => workUnitAsyncStorage.run(requestStore, fn));
  } catch (error) {
    // Next.js loaded before next-runtime.ts: no scope to give; the handlers that need none still run.
    if (error instanceof Error && error.message.includes("AsyncLocalStorage accessed in runtime where it is not available"))
      return fn();
    throw error;
  }
}

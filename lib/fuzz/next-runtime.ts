/**
 * What Next.js's server runtime sets up before any of its modules load: AsyncLocalStorage on
 * globalThis (its request scope is made of it). Import this first in a process that calls route
 * handlers without Next.js's server (tests, the fuzz run), before anything imports `next/*`.
 */
import { AsyncLocalStorage } from "node:async_hooks";

(globalThis as { AsyncLocalStorage?: unknown }).AsyncLocalStorage ??= AsyncLocalStorage;

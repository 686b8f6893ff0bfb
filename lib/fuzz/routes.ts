/** The route files the fuzz run calls: found on disk under app/, loaded with the methods they export and serve. */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { callRoute, type RouteHandler } from "./call";

export const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** One route file: its URL pattern ("/api/v1/sessions/[id]/spans") and the methods it exports. */
export interface FuzzRoute {
  file: string;
  pattern: string;
  handlers: Partial<Record<(typeof METHODS)[number], RouteHandler>>;
  /** The methods it serves (its OPTIONS answer's Allow), as opposed to those it answers 405 for. */
  served: Array<(typeof METHODS)[number]>;
}

/** Every route.ts under app/, as URL patterns (route groups such as "(dashboard)" are not in the URL). */
export function routeFiles(root = process.cwd()): Array<{ file: string; pattern: string }> {
  const found: Array<{ file: string; pattern: string }> = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (entry === "route.ts") {
        const segments = path
          .relative(path.join(root, "app"), dir)
          .split(path.sep)
          .filter((s) => s && !/^\(.*\)$/.test(s));
        found.push({ file: full, pattern: `/${segments.join("/")}` });
      }
    }
  };
  walk(path.join(root, "app"));
  return found.sort((a, b) => a.pattern.localeCompare(b.pattern));
}

export async function loadRoutes(root = process.cwd()): Promise<FuzzRoute[]> {
  const routes: FuzzRoute[] = [];
  for (const { file, pattern } of routeFiles(root)) {
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const handlers: FuzzRoute["handlers"] = {};
    for (const m of METHODS) if (typeof mod[m] === "function") handlers[m] = mod[m] as RouteHandler;
    const exported = Object.keys(handlers) as FuzzRoute["served"];
    let served = exported;
    if (handlers.OPTIONS) {
      const allow = (await callRoute(handlers.OPTIONS, { method: "OPTIONS", path: pattern })).headers.get("allow");
      if (allow)
        served = allow
          .split(",")
          .map((m) => m.trim())
          .filter((m): m is (typeof METHODS)[number] => m in handlers && m !== "OPTIONS" && m !== "HEAD");
    }
    routes.push({ file, pattern, handlers, served: served.length > 0 ? served : exported });
  }
  return routes;
}

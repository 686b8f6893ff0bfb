/**
 * The server actions the fuzz run calls: every export of every module under app/ that starts with
 * the "use server" directive, found on disk like the route files, so a new action cannot be
 * forgotten. Next.js makes each such export a public endpoint anyone can POST to.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** One exported server action: "app/admin/actions.ts#createProjectAction" and the function itself. */
export interface FuzzAction {
  id: string;
  file: string;
  name: string;
  fn: (...args: unknown[]) => Promise<unknown>;
}

const SOURCE = /\.(ts|tsx|js|jsx|mjs)$/;
const DIRECTIVE = /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*["']use server["']/;
const ANY_DIRECTIVE = /["']use server["']/g;

function sources(root: string, folders: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (SOURCE.test(entry) && !/\.test\.[a-z]+$/.test(entry)) found.push(full);
    }
  };
  for (const folder of folders) {
    try {
      walk(path.join(root, folder));
    } catch {
      // A folder that does not exist holds no actions.
    }
  }
  return found.sort();
}

/** Files under app/ whose module starts with "use server": every export is a server action. */
export function actionFiles(root = process.cwd()): string[] {
  return sources(root, ["app"]).filter((file) => DIRECTIVE.test(readFileSync(file, "utf8")));
}

/**
 * Files under app/ or components/ that say "use server" anywhere but as a module's directive: an
 * action written inside a component, which the fuzz run cannot call. Keeping actions in their own
 * modules is what lets every one of them be found and fuzzed.
 */
export function inlineActionFiles(root = process.cwd()): string[] {
  return sources(root, ["app", "components"]).filter((file) => {
    const text = readFileSync(file, "utf8");
    const uses = text.match(ANY_DIRECTIVE)?.length ?? 0;
    return uses > (DIRECTIVE.test(text) ? 1 : 0);
  });
}

/** Every exported function of every action file, by id (the file relative to the root, "#", the export). */
export async function loadActions(root = process.cwd()): Promise<FuzzAction[]> {
  const actions: FuzzAction[] = [];
  for (const file of actionFiles(root)) {
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const relative = path.relative(root, file).split(path.sep).join("/");
    for (const [name, value] of Object.entries(mod)) {
      if (typeof value !== "function") continue;
      actions.push({ id: `${relative}#${name}`, file, name, fn: value as FuzzAction["fn"] });
    }
  }
  return actions.sort((a, b) => a.id.localeCompare(b.id));
}

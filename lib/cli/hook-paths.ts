/**
 * Where this checkout is, and where `npm run build:hook` writes the hooks as plain JavaScript.
 * Kept apart from the builder so the hooks (which import this) never load the bundler.
 */
import { bundlePath, projectRoot } from "@/lib/core/project-root";

export { projectRoot };

export function hookBundlePath(root = projectRoot()): string {
  return bundlePath("hook", root);
}

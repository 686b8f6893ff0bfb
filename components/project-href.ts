/** A page of a project: projectHref("demo", "/sessions") is "/projects/demo/sessions". */
export function projectHref(slug: string, path = ""): string {
  return `/projects/${encodeURIComponent(slug)}${path}`;
}

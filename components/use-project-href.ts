"use client";

import { useParams } from "next/navigation";
import { projectHref } from "./project-href";

/**
 * For client components on a project's pages: links under the project in the URL
 * (`/projects/{slug}/...`), without each page handing the slug down.
 */
export function useProjectHref(): (path: string) => string {
  const { slug } = useParams<{ slug: string }>();
  return (path) => projectHref(slug, path);
}

import { PageSkeleton } from "@/components/PageSkeleton";

/** Shown at once while any page of a project reads its data. */
export default function Loading() {
  return <PageSkeleton label="Loading the page…" variant="list" />;
}

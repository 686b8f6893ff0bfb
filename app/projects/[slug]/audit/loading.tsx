import { PageSkeleton } from "@/components/PageSkeleton";

/** The log pages on the server: a calm placeholder while it reads. */
export default function Loading() {
  return <PageSkeleton label="Loading the audit log…" variant="list" />;
}

import { PageSkeleton } from "@/components/PageSkeleton";

/** A large session reads its grid and a page of its transcript first. */
export default function Loading() {
  return <PageSkeleton label="Loading the session…" variant="detail" />;
}

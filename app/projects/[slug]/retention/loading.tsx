import { PageSkeleton } from "@/components/PageSkeleton";

/** Storage figures and expiries are aggregates over every original. */
export default function Loading() {
  return <PageSkeleton label="Loading retention…" variant="charts" />;
}

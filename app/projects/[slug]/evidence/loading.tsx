import { PageSkeleton } from "@/components/PageSkeleton";

/** Answering a question can take a while over many sessions. */
export default function Loading() {
  return <PageSkeleton label="Answering the question…" variant="detail" />;
}

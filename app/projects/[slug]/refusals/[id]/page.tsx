import Link from "next/link";
import { orNotFound } from "../../or-not-found";
import { projectHref } from "@/components/project-href";
import { RefusalExplanation } from "@/components/RefusalExplanation";
import { requireMember } from "@/lib/auth/project-access";
import { refusalExplanation } from "@/lib/server/compactions";

export const metadata = { title: "Refusal" };

/** One refusal explained: a member of the project only; another project's refusal is not found. */
export default async function RefusalPage({ params }: { params: Promise<{ slug: string; id: string }> }) {
  const { slug, id } = await params;
  const { project } = await requireMember(slug);
  const explanation = await orNotFound(refusalExplanation(project.id, id));
  return (
    <>
      <p className="subtitle" style={{ marginBottom: 4 }}>
        <Link href={projectHref(project.slug, "/refusals")}>Refusals</Link> · project {project.name}
      </p>
      <h1>Why the gate refused</h1>
      <RefusalExplanation explanation={explanation} basePath={projectHref(project.slug)} />
    </>
  );
}

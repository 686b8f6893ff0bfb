import Link from "next/link";
import { EvidenceExportDocument } from "@/components/EvidenceExportDocument";
import { AppError } from "@/lib/core/errors";
import { requireMember } from "@/lib/auth/project-access";
import { evidenceQueryFromUrl, exportEvidence } from "@/lib/server/questions";

export const metadata = { title: "Evidence export" };
export const dynamic = "force-dynamic";

/**
 * The Evidence page's answer as a printable export (print to PDF from the browser): the same
 * sealed document as the JSON download, audited as an export of its own.
 */
export default async function EvidenceExportPrintPage({
  params: routeParams,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  // A non-member gets the 404 page before anything is read.
  const { project, user } = await requireMember((await routeParams).slug, "read");
  const raw = await searchParams;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(raw)) for (const v of [value].flat()) if (v !== undefined) params.append(key, v);
  params.delete("project");
  const back = `/projects/${project.slug}/evidence?${params}`;

  let problem: string | null = null;
  let document: Awaited<ReturnType<typeof exportEvidence>>["document"] | null = null;
  try {
    const input = await evidenceQueryFromUrl(project.id, params);
    if (!input) problem = "Choose a question on the Evidence page first.";
    else ({ document } = await exportEvidence({ input, project, askedBy: { id: user.id, email: user.email }, format: "print" }));
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    problem = `${error.message}${error.fields ? `: ${error.fields.map((f) => `${f.path} ${f.message}`).join("; ")}` : ""}`;
  }

  return (
    <>
      <nav className="no-print" aria-label="Export">
        <p>
          <Link href={back}>Back to the answer</Link> ·{" "}
          <a href={`/projects/${project.slug}/evidence/export?${params}&format=json`}>JSON</a> · Print this page to keep it as a
          PDF.
        </p>
      </nav>
      {document ? (
        <EvidenceExportDocument document={document} />
      ) : (
        <p className="panel" role="alert">
          {problem}
        </p>
      )}
    </>
  );
}

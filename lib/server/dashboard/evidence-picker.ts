import { db } from "@/lib/db/client";

/** How many sessions the Evidence page offers to scope a question to (most recently active first). */
const PICKER_SESSIONS = 500;

/** What the Evidence page's form offers: the project's most recently active sessions. */
export async function evidencePicker(projectId: string) {
  const sessions = await db().session.findMany({
    where: { projectId },
    orderBy: { lastActivityAt: "desc" },
    take: PICKER_SESSIONS,
    select: { id: true, title: true, externalId: true },
  });
  return { sessions };
}

import { analyzeSpan } from "@/lib/evidence/analyze";
import { sessionProfile, TranscriptGenerator } from "./transcript";
const enc = new TextEncoder();
const p = sessionProfile(3); const g = new TranscriptGenerator(p); let shown = 0;
const byKind: Record<string, Record<string, number>> = {};
for (let i = 0; i < 3000; i++) {
  const sp = g.next(); const body = enc.encode(sp.body);
  const a = analyzeSpan({ body, kind: sp.kind, role: sp.role, toolName: sp.toolName, toolInput: sp.toolInput, exitCode: sp.exitCode, cwd: p.cwd });
  const k = sp.kind + ":" + (sp.toolName ?? sp.role); byKind[k] ??= {}; byKind[k][a.classification.class] = (byKind[k][a.classification.class] ?? 0) + 1;
  if (sp.kind === "MESSAGE" && a.classification.class !== "NARRATIVE" && shown++ < 4) console.log(sp.body.slice(0, 200), a.atoms.map(x => x.kind + "=" + x.text), a.classification.reasons.map(r => r.rule));
}
console.log(byKind);

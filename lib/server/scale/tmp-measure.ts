import { analyzeSpan } from "@/lib/evidence/analyze";
import { sessionProfile, TranscriptGenerator } from "./transcript";
const enc = new TextEncoder();
let n = 0, atoms = 0, bytes = 0; const cls: Record<string, number> = {}; const effects: Record<string, number> = {};
const t0 = performance.now();
for (let s = 0; s < 40; s++) {
  const p = sessionProfile(s); const g = new TranscriptGenerator(p);
  for (let i = 0; i < 1000; i++) {
    const sp = g.next(); const body = enc.encode(sp.body); bytes += body.length;
    const a = analyzeSpan({ body, kind: sp.kind, role: sp.role, toolName: sp.toolName, toolInput: sp.toolInput, exitCode: sp.exitCode, cwd: p.cwd });
    n++; atoms += a.atoms.length; cls[a.classification.class] = (cls[a.classification.class] ?? 0) + 1;
    for (const at of a.atoms) if (at.effect) effects[at.effect] = (effects[at.effect] ?? 0) + 1;
  }
}
const dt = performance.now() - t0;
console.log(n, "spans", (n / dt * 1000).toFixed(0), "spans/s; atoms/span", (atoms / n).toFixed(2), "bytes/span", (bytes / n).toFixed(0), cls, effects);

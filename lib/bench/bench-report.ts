/**
 * What a benchmark run measured, phase by phase, kept as it goes: a phase or a case that fails is
 * recorded with its reason and the run goes on, so the end prints every figure measured, then
 * every failure by phase (and the process exits non-zero).
 */
import { measure, printTimings, type Timing } from "./measure";

export interface Failure {
  phase: string;
  what: string;
  reason: string;
}

export class BenchReport {
  readonly sections: Array<{ title: string; timings: Timing[] }> = [];
  readonly notes: string[] = [];
  readonly failures: Failure[] = [];

  /** A titled group of timings, printed in the order opened. */
  section(title: string): Timing[] {
    const timings: Timing[] = [];
    this.sections.push({ title, timings });
    return timings;
  }

  /** Runs a phase; its failure is recorded (and printed at once), not thrown. */
  async phase<T>(phase: string, work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (error) {
      this.fail(phase, "the phase", error);
      return undefined;
    }
  }

  /** Times one case into `into`; a failure is recorded against the phase and the case. */
  async time(
    phase: string,
    into: Timing[],
    label: string,
    fn: () => Promise<unknown>,
    options: Parameters<typeof measure>[2],
  ): Promise<Timing | undefined> {
    try {
      const timing = await measure(label, fn, options);
      into.push(timing);
      return timing;
    } catch (error) {
      this.fail(phase, label, error);
      return undefined;
    }
  }

  fail(phase: string, what: string, error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    this.failures.push({ phase, what, reason });
    console.log(`  !! ${phase}: ${what} failed: ${reason}`);
  }

  note(line: string): void {
    this.notes.push(line);
  }

  /** Every figure measured, then every failure; true when nothing failed. */
  print(): boolean {
    for (const { title, timings } of this.sections) {
      if (timings.length === 0) continue;
      console.log(`\n${title}`);
      printTimings(timings);
    }
    if (this.notes.length > 0) console.log(`\n${this.notes.join("\n")}`);
    if (this.failures.length > 0) {
      console.log(`\nFAILED (${this.failures.length}):`);
      for (const f of this.failures) console.log(`  ${f.phase}: ${f.what}: ${f.reason}`);
    }
    return this.failures.length === 0;
  }
}

/**
 * A `Text` is a binary string (one code unit per byte) plus the map from its indexes back to
 * body byte offsets. Most texts are a contiguous slice of the body (offset = base + index); texts
 * rebuilt from escapes (a JSON string with \n or \u00e9, a shell word with quotes removed) map by
 * runs: unit u[k] + j comes from body byte r[k] + j, until the next run starts. Mapping by runs
 * keeps an escaped 5 MB file content at a few numbers per escape, not four bytes per character.
 *
 * Texts nest (a JSON string inside a JSON string, a `bash -c` script inside a JSON argument):
 * a child built in its parent's coordinates is composed down to body offsets once, at creation.
 */
export class Text {
  private constructor(
    /** Binary string: char code = byte value (escapes already resolved). */
    readonly s: string,
    private readonly base: number,
    /** Unit index where each run starts (strictly increasing, last one = s.length sentinel). */
    private readonly u: Int32Array | null,
    /** Body byte offset where each run starts. */
    private readonly r: Int32Array | null,
  ) {}

  /** A contiguous slice of the body: index i is byte base + i. */
  static contiguous(s: string, base: number): Text {
    return new Text(s, base, null, null);
  }

  /** True when index i is byte base + i for every i (no escapes in between). */
  get isContiguous(): boolean {
    return this.u === null;
  }

  /** Body byte offset of unit i; i === s.length gives the end of the last unit. */
  byteAt(i: number): number {
    const u = this.u;
    if (u === null) return this.base + i;
    const k = this.runAt(i);
    return this.r![k]! + (i - u[k]!);
  }

  /** Index of the last run starting at or before unit i (runs mapping only). */
  private runAt(i: number): number {
    const u = this.u!;
    let lo = 0;
    let hi = u.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (u[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The sub-text [a, b), mapping preserved. */
  sub(a: number, b: number): Text {
    if (a === 0 && b === this.s.length) return this;
    const s = this.s.slice(a, b);
    if (this.u === null) return new Text(s, this.base + a, null, null);
    const u = this.u;
    const r = this.r!;
    const nu: number[] = [0];
    const nr: number[] = [this.byteAt(a)];
    for (let k = this.runAt(a) + 1; k < u.length; k++) {
      const uk = u[k]!;
      if (uk <= a) continue;
      if (uk >= b) break;
      nu.push(uk - a);
      nr.push(r[k]!);
    }
    nu.push(b - a);
    nr.push(this.byteAt(b));
    return new Text(s, 0, new Int32Array(nu), new Int32Array(nr));
  }

  /**
   * A child text built from this one: `s` is the child's binary string, and child unit
   * `cu[k] + j` comes from this text's unit `cp[k] + j` until `cu[k + 1]`. The last entry of
   * `cu` must be `s.length`, paired with this text's index just past the child's last unit.
   */
  derive(s: string, cu: readonly number[], cp: readonly number[]): Text {
    // The child is one untouched run of a contiguous parent: stay contiguous.
    if (this.u === null && cu.length === 2 && cp[1]! - cp[0]! === s.length) {
      return new Text(s, this.base + cp[0]!, null, null);
    }
    const nu: number[] = [];
    const nr: number[] = [];
    const last = cu.length - 1;
    for (let k = 0; k < last; k++) {
      const c0 = cu[k]!;
      const p0 = cp[k]!;
      const len = cu[k + 1]! - c0;
      nu.push(c0);
      nr.push(this.byteAt(p0));
      if (this.u !== null && len > 1) {
        // Parent runs that start inside this child run split it.
        const u = this.u;
        const r = this.r!;
        for (let j = this.runAt(p0) + 1; j < u.length; j++) {
          const uj = u[j]!;
          if (uj <= p0) continue;
          if (uj >= p0 + len) break;
          nu.push(c0 + (uj - p0));
          nr.push(r[j]!);
        }
      }
    }
    nu.push(cu[last]!);
    nr.push(this.byteAt(cp[last]!));
    return new Text(s, 0, new Int32Array(nu), new Int32Array(nr));
  }
}

/**
 * Accumulates a child text piece by piece, in parent coordinates: copied runs of the parent,
 * and single units (an unescaped character) that stand for a parent range.
 */
export class TextBuilder {
  private readonly parts: string[] = [];
  private readonly cu: number[] = [];
  private readonly cp: number[] = [];
  private len = 0;
  /** Parent index just past the last consumed parent unit, skipped ones included. */
  private parentEnd = 0;
  /** Parent index just past the last unit that produced output (the end sentinel): a value's
   * range stops at its last character, not after a closing quote that was skipped. */
  private contentEnd = -1;
  /** Parent index the next copied unit would come from if the run continued. */
  private nextParent = -1;

  constructor(private readonly parent: Text) {}

  /** Copies parent units [a, b). */
  copy(a: number, b: number): void {
    if (b <= a) return;
    if (this.nextParent !== a) {
      this.cu.push(this.len);
      this.cp.push(a);
    }
    this.parts.push(this.parent.s.slice(a, b));
    this.len += b - a;
    this.nextParent = b;
    this.parentEnd = b;
    this.contentEnd = b;
  }

  /** Appends `chars` (binary) standing for parent units [a, b) (an escape sequence). */
  unit(chars: string, a: number, b: number): void {
    for (let i = 0; i < chars.length; i++) {
      this.cu.push(this.len + i);
      this.cp.push(a);
    }
    this.parts.push(chars);
    this.len += chars.length;
    this.nextParent = -1;
    this.parentEnd = b;
    if (chars.length > 0) this.contentEnd = b;
  }

  /** Marks parent units up to `b` as consumed without producing output (a removed quote). */
  skip(b: number): void {
    this.nextParent = -1;
    this.parentEnd = b;
  }

  get length(): number {
    return this.len;
  }

  build(): Text {
    const s = this.parts.length === 1 ? this.parts[0]! : this.parts.join("");
    const cu = this.cu.slice();
    const cp = this.cp.slice();
    const end = this.contentEnd >= 0 ? this.contentEnd : this.parentEnd;
    if (cu.length === 0) {
      cu.push(0);
      cp.push(end);
    }
    cu.push(this.len);
    cp.push(end);
    return this.parent.derive(s, cu, cp);
  }
}

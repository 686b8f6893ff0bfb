/**
 * Each record's disposition by its line, a byte a record: a large file holds hundreds of thousands
 * of records, and the ledger lives until the end of the file, whatever its windows hand over.
 */
export type Disposition = { state: "used" } | { state: "ignored"; type: string } | { state: "skipped" };

const UNSEEN = 0;
const READ = 1;
const USED = 2;
const IGNORED = 3;
const SKIPPED = 4;

export class RecordLedger {
  private states = new Uint8Array(1024);
  /** For IGNORED lines: the index of their type in `types`. */
  private typeOf = new Uint32Array(1024);
  private readonly types: string[] = [];
  private readonly typeIndex = new Map<string, number>();
  private count = 0;
  private last = -1;

  /** Records seen (read or accounted for). */
  get size(): number {
    return this.count;
  }

  read(line: number): void {
    if (this.state(line) === UNSEEN) this.set(line, READ);
  }

  use(line: number): void {
    this.set(line, USED);
  }

  /** Unless already used. */
  ignore(line: number, type: string): void {
    if (this.state(line) === USED) return;
    let index = this.typeIndex.get(type);
    if (index === undefined) {
      index = this.types.push(type) - 1;
      this.typeIndex.set(type, index);
    }
    this.set(line, IGNORED);
    this.typeOf[line] = index;
  }

  /** Unless already used. */
  skip(line: number): void {
    if (this.state(line) !== USED) this.set(line, SKIPPED);
  }

  /** Skipped even when used: nothing the record gave was kept. */
  unuse(line: number): void {
    this.set(line, SKIPPED);
  }

  /** Lines read and never accounted for, in order. */
  *unaccounted(): Generator<number> {
    for (let line = 0; line <= this.last; line++) if (this.states[line] === READ) yield line;
  }

  /** Every accounted record's disposition, in line order. */
  *dispositions(): Generator<Disposition> {
    for (let line = 0; line <= this.last; line++) {
      const state = this.states[line];
      if (state === USED) yield { state: "used" };
      else if (state === IGNORED) yield { state: "ignored", type: this.types[this.typeOf[line]!]! };
      else if (state === SKIPPED) yield { state: "skipped" };
    }
  }

  private state(line: number): number {
    return this.states[checked(line)] ?? UNSEEN;
  }

  private set(line: number, state: number): void {
    checked(line);
    if (line >= this.states.length) this.grow(line);
    if (this.states[line] === UNSEEN) this.count++;
    this.states[line] = state;
    if (line > this.last) this.last = line;
  }

  private grow(line: number): void {
    let size = this.states.length;
    while (size <= line) size *= 2;
    const states = new Uint8Array(size);
    states.set(this.states);
    this.states = states;
    const typeOf = new Uint32Array(size);
    typeOf.set(this.typeOf);
    this.typeOf = typeOf;
  }
}

/** Lines (and record indexes) are whole numbers from 0 (0 names the whole document). */
function checked(line: number): number {
  if (!Number.isSafeInteger(line) || line < 0) throw new RangeError(`record line ${line} is not a whole number from 0`);
  return line;
}

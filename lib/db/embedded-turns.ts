/**
 * Turns for the connections of the embedded database. PGlite is one Postgres session: every
 * connection its socket server serves shares it, and the server hands it messages one at a time.
 * Its own queue keeps an open transaction's connection in front, but not an extended-protocol
 * exchange (Parse, Bind, Describe, Execute up to Sync) that is not inside a transaction: two
 * connections' exchanges then interleave and clobber each other's unnamed statement and portal
 * (`portal "" does not exist`), which `pg` and Prisma send for every parameterised query.
 *
 * This replaces the queue's choice of the next message: a connection keeps its turn from its first
 * message of an exchange to its Sync (or, for COPY FROM STDIN, to CopyDone or CopyFail), and for as
 * long as it holds a transaction open. A connection that keeps its turn but sends nothing while
 * others wait longer than `idleLimitMs` is cut off: its transaction is rolled back and the others
 * go on, as Postgres' idle_in_transaction_session_timeout would do.
 */
import type { PGlite } from "@electric-sql/pglite";
import type { PGLiteSocketServer } from "@electric-sql/pglite-socket";

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
  timestamp: number;
  onData: (data: Uint8Array) => void;
}

/** The parts of pglite-socket 0.2.17's QueryQueueManager and server this relies on. */
interface QueueInternals {
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  processQueue(): Promise<void>;
  clearQueueForHandler(handlerId: number): void;
  clearTransactionIfNeeded(handlerId: number): Promise<void>;
}
interface ServerInternals {
  queryQueue: QueueInternals;
  handlers: Set<{ handlerId: number; detach(close?: boolean): Promise<unknown> }>;
}

const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const COPY_DONE = 0x63; // 'c'
const COPY_FAIL = 0x66; // 'f'
const TERMINATE = 0x58; // 'X'
const SYNC_MESSAGE = new Uint8Array([SYNC, 0, 0, 0, 4]);

/** Whether a message ends its connection's exchange (the turn passes unless a transaction is open). */
function endsExchange(message: Uint8Array, inCopy: boolean): { ends: boolean; startsCopy: boolean } {
  const type = message[0];
  if (inCopy) return { ends: type === COPY_DONE || type === COPY_FAIL, startsCopy: false };
  // A startup message (no type byte: it begins with its length) stands alone.
  if (type === 0 || type === SYNC || type === TERMINATE) return { ends: true, startsCopy: false };
  if (type === QUERY) {
    const text = Buffer.from(message.subarray(5, Math.min(message.length, 5 + 200))).toString("latin1");
    const startsCopy = /^\s*copy\b[\s\S]*\bfrom\s+stdin\b/i.test(text);
    return { ends: !startsCopy, startsCopy };
  }
  return { ends: false, startsCopy: false };
}

export interface TurnsWatch {
  /** Connections cut off for holding their turn idle while others waited. */
  readonly cutOff: number;
  stop(): void;
}

export function takeTurns(server: PGLiteSocketServer, db: PGlite, idleLimitMs: number): TurnsWatch {
  const internals = server as unknown as ServerInternals;
  const queue = internals.queryQueue;
  let owner: number | null = null;
  let inCopy = false;
  let ownerIdleSince = Date.now();
  let cutOff = 0;

  const next = (): QueuedMessage | null | undefined => {
    if (owner === null) return queue.queue.shift();
    const index = queue.queue.findIndex((m) => m.handlerId === owner);
    return index === -1 ? null : queue.queue.splice(index, 1)[0];
  };

  queue.processQueue = async function processQueue() {
    if (queue.processing) return;
    queue.processing = true;
    try {
      for (;;) {
        const item = next();
        if (!item) break;
        try {
          await db.runExclusive(() => db.execProtocolRawStream(item.message, { onRawData: item.onData }));
        } catch (error) {
          item.reject(error);
        }
        queue.lastHandlerId = item.handlerId;
        const step = endsExchange(item.message, inCopy);
        inCopy = inCopy ? !step.ends : step.startsCopy;
        owner = step.ends && !db.isInTransaction() ? null : item.handlerId;
        ownerIdleSince = Date.now();
        item.resolve(0);
      }
    } finally {
      queue.processing = false;
    }
  };

  // A connection that goes away mid-exchange or mid-transaction gives its turn back, its work undone.
  const clearQueueForHandler = queue.clearQueueForHandler.bind(queue);
  queue.clearQueueForHandler = (handlerId: number) => {
    clearQueueForHandler(handlerId);
    if (owner !== handlerId) return;
    void release(handlerId);
  };
  queue.clearTransactionIfNeeded = async () => {};

  let releasing = false;
  async function release(handlerId: number): Promise<void> {
    if (owner !== handlerId || releasing) return;
    releasing = true;
    try {
      // Ends an exchange left half sent, then (outside the lock: exec takes it itself) its transaction.
      await db.runExclusive(async () => {
        if (inCopy) await db.execProtocolRawStream(new Uint8Array([COPY_FAIL, 0, 0, 0, 5, 0]), { onRawData: () => {} });
        await db.execProtocolRawStream(SYNC_MESSAGE, { onRawData: () => {} });
      });
      if (db.isInTransaction()) await db.exec("ROLLBACK");
    } catch (error) {
      console.error("Embedded database: could not undo the work of a connection that went away", error);
    }
    owner = null;
    inCopy = false;
    releasing = false;
    void queue.processQueue();
  }

  const timer = setInterval(
    () => {
      if (owner === null || idleLimitMs <= 0 || queue.processing || releasing) return;
      const waiting = queue.queue.filter((m) => m.handlerId !== owner);
      if (waiting.length === 0 || Date.now() - ownerIdleSince < idleLimitMs) return;
      const oldest = Math.min(...waiting.map((m) => m.timestamp));
      if (Date.now() - oldest < idleLimitMs) return;
      const stuck = [...internals.handlers].find((h) => h.handlerId === owner);
      cutOff++;
      console.error(
        `Embedded database: a connection held a transaction open without sending anything for ${idleLimitMs} ms ` +
          `while ${waiting.length} message(s) of others waited; it was closed and its transaction rolled back`,
      );
      if (stuck) void stuck.detach(true);
      else void release(owner);
    },
    Math.max(50, Math.min(1000, idleLimitMs / 4)),
  );
  timer.unref();

  return {
    get cutOff() {
      return cutOff;
    },
    stop: () => clearInterval(timer),
  };
}

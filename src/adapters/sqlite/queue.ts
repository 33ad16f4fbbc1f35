/**
 * One read snapshot of a connection: `open` begins it (`BEGIN`, then the first read), `close` ends
 * it (`COMMIT`). Reads of one connection share it when they wait together.
 */
export interface Snapshot {
  /** The connection it reads: reads of one connection only share a snapshot. */
  readonly db: object;
  open(): void;
  close(): void;
  /** Ends it without `COMMIT` (`ROLLBACK`), when closing failed or a read in it failed. */
  abandon(): void;
}

/** Node's, Bun's and Deno's `setImmediate`: after the event loop's poll phase. */
const later = (globalThis as { setImmediate?: (run: () => void) => unknown }).setImmediate;

/** A transaction waiting for the connection: exclusive work, or a read and the snapshot it needs. */
interface Waiting {
  readonly snapshot: Snapshot | undefined;
  /** Runs the body and settles its caller's promise; never rejects, answers whether it succeeded. */
  readonly run: () => Promise<boolean>;
  /** Settles its caller's promise with the failure to open or close its snapshot. */
  readonly fail: (error: unknown) => void;
}

/**
 * The transactions waiting for one SQLite lock (one per file, shared by the storages on it), run
 * one at a time in the order they came. Writes, the schema and closing run alone. A read starts a
 * snapshot, and every read of the same connection waiting right behind it when it starts runs in
 * that snapshot too, one after the other, before it ends.
 *
 * Sharing is sound because each of those reads was waiting before the snapshot began: a
 * transaction may see any state between its start and its end, and this one is. A read that comes
 * while the snapshot is open waits for the next one, so a snapshot is never older than the reads
 * in it, and a write ends it (the reads behind the write see it). Under load the reads that a turn
 * of the event loop queues share one `BEGIN`, `PRAGMA data_version` and `COMMIT`: SQLite takes
 * and releases its WAL read lock once for them, instead of once each (docs/performance.md).
 */
export class TransactionQueue {
  #waiting: Waiting[] = [];
  #head = 0;
  #draining = false;

  /** Runs `fn` alone, once everything before it has run. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.#enqueue(undefined, fn);
  }

  /** Runs `fn` in a snapshot of `snapshot.db`, shared with the reads of that connection beside it. */
  read<T>(snapshot: Snapshot, fn: () => Promise<T>): Promise<T> {
    return this.#enqueue(snapshot, fn);
  }

  #enqueue<T>(snapshot: Snapshot | undefined, fn: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#waiting.push({
        snapshot,
        run: async () => {
          try {
            resolve(await fn());
            return true;
          } catch (error) {
            reject(error);
            return false;
          }
        },
        fail: reject,
      });
      if (!this.#draining) {
        this.#draining = true;
        // A write starts from a microtask, as a promise chain would. A read on an idle queue
        // starts once the event loop has taken in what else arrived (every request read in the
        // same turn): they then share its snapshot. Where there is no `setImmediate`, from a
        // microtask too.
        if (snapshot && later) later(() => void this.#drain());
        else queueMicrotask(() => void this.#drain());
      }
    });
  }

  #next(): Waiting | undefined {
    if (this.#head === this.#waiting.length) {
      this.#waiting = [];
      this.#head = 0;
      return undefined;
    }
    if (this.#head > 1024 && this.#head * 2 > this.#waiting.length) {
      // Under steady load the queue never empties: what has run is dropped now and then.
      this.#waiting = this.#waiting.slice(this.#head);
      this.#head = 0;
    }
    return this.#waiting[this.#head++];
  }

  async #drain(): Promise<void> {
    try {
      for (let first = this.#next(); first; first = this.#next()) {
        const snapshot = first.snapshot;
        if (!snapshot) {
          await first.run();
          continue;
        }
        // The reads of this connection waiting now, right behind the first: all came before it opens.
        let after = this.#head;
        while (after < this.#waiting.length && this.#waiting[after]!.snapshot?.db === snapshot.db) after++;
        const batch = [first, ...this.#waiting.slice(this.#head, after)];
        this.#head = after;
        await this.#readAll(snapshot, batch);
      }
    } finally {
      this.#draining = false;
    }
  }

  async #readAll(snapshot: Snapshot, batch: readonly Waiting[]): Promise<void> {
    let open = false;
    for (const waiting of batch) {
      if (!open) {
        try {
          snapshot.open();
          open = true;
        } catch (error) {
          waiting.fail(error);
          continue;
        }
      }
      if (!(await waiting.run())) {
        // A failed read may have been a failed statement, after which SQLite may have ended the
        // transaction itself: the reads after it get a snapshot of their own (they too came before it).
        end(snapshot, "abandon");
        open = false;
      }
    }
    if (open) end(snapshot, "close");
  }
}

/** Ends a snapshot; one that cannot be committed is rolled back, one that cannot be either is gone. */
function end(snapshot: Snapshot, how: "close" | "abandon"): void {
  if (how === "close") {
    try {
      snapshot.close();
      return;
    } catch {
      // Rolled back below.
    }
  }
  try {
    snapshot.abandon();
  } catch {
    // No transaction is left.
  }
}

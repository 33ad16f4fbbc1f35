/**
 * WAL checkpoints off the event loop (Node, better-sqlite3 only; loaded only by a storage that
 * opened its own file).
 *
 * SQLite copies the write-ahead log back into the database file once the log passes 1,000 pages,
 * inside the commit that crossed the mark: that commit then takes 25 to 35 ms where the others take
 * under 8, and since better-sqlite3 is synchronous the whole process waits (measured on an analysis
 * job, docs/performance.md "Conversation analysis"). Instead, a worker thread holds a connection of
 * its own to the file and runs a `PASSIVE` checkpoint every `intervalMs`: it copies what no reader
 * still needs and never waits for, nor blocks, the storage's readers and writers. Once it runs,
 * the storage's own connection stops checkpointing (`wal_autocheckpoint = 0`); should the worker
 * fail, the storage's connection takes checkpoints back.
 */

/**
 * Node's modules, loaded only when a checkpointer starts, by specifiers held in variables (as
 * better-sqlite3 is, in driver.ts): the adapter itself imports nothing runtime-specific.
 */
const NODE_MODULE = "node:module";
const NODE_WORKER_THREADS = "node:worker_threads";

type WorkerThread = {
  unref(): void;
  postMessage(message: unknown): void;
  once(event: string, listener: (value: unknown) => void): void;
  on(event: string, listener: (value: unknown) => void): void;
  off(event: string, listener: (value: unknown) => void): void;
};
type WorkerThreads = {
  Worker: new (source: string, options: { eval: true; workerData: unknown }) => WorkerThread;
};
type NodeModule = { createRequire(from: string): { resolve(specifier: string): string } };

/** The worker's source, run as CommonJS (`eval`): it loads better-sqlite3 from the path it is given. */
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file);
const checkpoint = () => db.pragma("wal_checkpoint(PASSIVE)");
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.once("message", () => {
  clearInterval(timer);
  try {
    checkpoint();
  } finally {
    db.close();
    parentPort.close();
  }
});
parentPort.postMessage("ready");
`;

/** A running checkpointer. */
export interface Checkpointer {
  /** Runs a last checkpoint and ends the worker; resolves once it has ended. */
  stop(): Promise<void>;
}

/**
 * Starts checkpointing `file` every `intervalMs` in a worker thread; resolves once the worker has
 * opened the file. `failed` is called if the worker ends with an error (its connection could not
 * open, or a checkpoint threw something other than busy). The worker keeps no process alive.
 */
export async function startCheckpointer(
  file: string,
  intervalMs: number,
  failed: (error: unknown) => void,
  load: (specifier: string) => Promise<unknown> = (specifier) => import(specifier),
): Promise<Checkpointer> {
  const { createRequire } = (await load(NODE_MODULE)) as NodeModule;
  const { Worker } = (await load(NODE_WORKER_THREADS)) as WorkerThreads;
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(WORKER, { eval: true, workerData: { driver, file, intervalMs } });
  worker.unref();
  const ended = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    worker.once("message", () => {
      worker.off("error", reject);
      worker.on("error", failed);
      resolve({
        async stop() {
          worker.postMessage("stop");
          await ended;
        },
      });
    });
    worker.once("error", reject);
  });
}

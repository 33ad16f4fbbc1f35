import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { contractSchema, contractTables } from "../../testing/index.js";
import { CHECKPOINTER_AFTER_WRITES, sqliteStorage } from "./index.js";

/**
 * WAL checkpoints in a worker thread (checkpointer.ts): SQLite's own run inside the commit that
 * grows the log past 1,000 pages (4 MB), which holds the event loop for tens of milliseconds.
 * Observed through the files: a checkpoint is what copies the log's pages into the database file.
 */

const { items } = contractTables;
const dir = mkdtempSync(join(tmpdir(), "docsbase-checkpoint-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

const MB = 1024 * 1024;
const size = (path: string) => (existsSync(path) ? statSync(path).size : 0);

async function storageWrittenPast(checkpointIntervalMs: number) {
  const filename = join(dir, `checkpoint-${++files}.db`);
  const storage = sqliteStorage({ filename, checkpointIntervalMs });
  await storage.init(contractSchema);
  for (let n = 0; n < CHECKPOINTER_AFTER_WRITES; n++) {
    await storage.write((tx) => tx.put(items, { id: `small-${n}`, rank: n }));
  }
  // 8,000,000 bytes (7.6 MiB) in 80 commits: the log passes SQLite's 1,000 pages twice.
  const filler = "x".repeat(100_000);
  for (let n = 0; n < 80; n++) {
    await storage.write((tx) => tx.put(items, { id: `large-${n}`, rank: n, filler }));
  }
  return { storage, filename };
}

describe("WAL checkpoints", () => {
  it("are not run by the storage's commits once the worker runs", async () => {
    // A worker that would checkpoint in an hour: nothing copies the log while the test looks.
    const { storage, filename } = await storageWrittenPast(3_600_000);
    expect(size(`${filename}-wal`)).toBeGreaterThan(7 * MB);
    expect(size(filename)).toBeLessThan(1 * MB);

    // Closing runs a last checkpoint: every write is in the database file, and the log is gone.
    await storage.close();
    expect(size(filename)).toBeGreaterThan(7 * MB);
    expect(existsSync(`${filename}-wal`)).toBe(false);
    const again = sqliteStorage({ filename });
    await again.init(contractSchema);
    expect(await again.read((tx) => tx.get(items, "small-0"))).toMatchObject({ rank: 0 });
    expect(await again.read((tx) => tx.get(items, "large-79"))).toMatchObject({ rank: 79 });
    await again.close();
  });

  it("are run by the worker, which copies the log into the database file", async () => {
    const { storage, filename } = await storageWrittenPast(10);
    for (let wait = 0; size(filename) < 7 * MB && wait < 500; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(size(filename)).toBeGreaterThan(7 * MB);
    await storage.close();
  });

  it("are left to SQLite with checkpointIntervalMs 0, in the commits that grow the log", async () => {
    const { storage, filename } = await storageWrittenPast(0);
    expect(size(filename)).toBeGreaterThan(4 * MB);
    expect(size(`${filename}-wal`)).toBeLessThan(5 * MB);
    await storage.close();
  });
});

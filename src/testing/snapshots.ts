import { isMemoryStorage, type MemorySnapshot, type MemoryStorage } from "../adapters/memory/index.js";
import type { Storage } from "../core/storage/port.js";
import { forgetInstanceState, type Docsbase } from "../docsbase.js";

declare const testSnapshot: unique symbol;

/** The state of a test double at one moment (`test.snapshot()`), which only that double restores. */
export interface TestSnapshot {
  readonly [testSnapshot]: true;
}

/**
 * The snapshots of one double over its memory storage: `take` one, `restore` one of its own (and
 * drop what the instance keeps in memory of the state it leaves), `fork` the storage as it is now.
 * With another storage, each throws, saying so.
 */
export function createSnapshots(docsbase: Docsbase, storage: Storage) {
  const taken = new WeakMap<TestSnapshot, MemorySnapshot>();
  const memory = (action: string): MemoryStorage => {
    if (isMemoryStorage(storage)) return storage;
    throw new TypeError(
      `test.${action}() needs the double's memory storage: the \`storage\` option gave another adapter, which cannot snapshot`,
    );
  };
  return {
    async take(action = "snapshot"): Promise<TestSnapshot> {
      const snapshot = Object.freeze({}) as TestSnapshot;
      taken.set(snapshot, await memory(action).snapshot());
      return snapshot;
    },
    async restore(snapshot: TestSnapshot | undefined, action = "restore"): Promise<void> {
      const from = snapshot && taken.get(snapshot);
      const target = memory(action);
      if (!from)
        throw new TypeError(`test.${action}() takes a snapshot that this double's test.snapshot() returned`);
      await target.restore(from);
      // Tokens, derived values and rate-limit counts of the state left behind must not answer.
      forgetInstanceState(docsbase);
    },
    /** A snapshot of the storage now, to start a fork's storage from (`memoryStorage({ from })`). */
    fork: (): Promise<MemorySnapshot> => memory("fork").snapshot(),
  };
}

import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { describe, expect, it } from "vitest";
import { indexedDbStorage } from "../src/adapters/indexeddb/index.js";
import { memoryStorage } from "../src/adapters/memory/index.js";
import { sqliteStorage } from "../src/adapters/sqlite/index.js";
import { jobsTable, type JobHandler } from "../src/core/jobs/index.js";
import { MAX_RUNNING_PER_ORGANIZATION } from "../src/core/jobs/queues.js";
import type { Storage } from "../src/core/storage/port.js";
import { firstResolved, gate, jobsDocsbase, movableClock } from "./support/jobs.js";

/**
 * Jobs of organizations "a" (slow: the nth to start is held until the test releases n) and "b"
 * (quick), and what happened, in order. `settled(...)` resolves at the first of the events named, so that a
 * test waits for an outcome without depending on time.
 */
function slowAndQuick() {
  const held = new Map<number, { promise: Promise<void>; open: () => void }>();
  const log: string[] = [];
  let started = 0;
  const waiters: { events: string[]; open: () => void }[] = [];
  const note = (event: string) => {
    log.push(event);
    for (const waiter of waiters) if (waiter.events.includes(event)) waiter.open();
  };
  const hold = (n: number) => {
    if (!held.has(n)) held.set(n, gate());
    return held.get(n)!;
  };
  const handlers = {
    slow: (async () => {
      const n = ++started;
      note(`a${n} started`);
      await hold(n).promise;
    }) satisfies JobHandler,
    quick: (async () => note("b done")) satisfies JobHandler,
  };
  const settled = (...events: string[]) => {
    if (events.some((event) => log.includes(event))) return Promise.resolve();
    const { promise, open } = gate();
    waiters.push({ events, open });
    return promise;
  };
  return { handlers, log, settled, release: (n: number) => hold(n).open() };
}

/** The claim order lives in storage: each adapter keeps it (PostgreSQL in the conformance suite). */
const adapters: [string, () => () => Storage][] = [
  [
    "memory",
    () => {
      const storage = memoryStorage();
      return () => storage;
    },
  ],
  [
    "sqlite",
    () => {
      const storage = sqliteStorage({ filename: ":memory:" });
      return () => storage;
    },
  ],
  [
    "indexeddb",
    () => {
      const indexedDB = new IDBFactory();
      return () => indexedDbStorage({ name: "jobs", indexedDB });
    },
  ],
];

describe.each(adapters)("job queue fairness (%s)", (_name, storageOf) => {
  it("runs another organization's job while one organization's slow jobs outnumber the drains", async () => {
    const { clock, advance } = movableClock();
    const { handlers, log, settled, release } = slowAndQuick();
    const { docsbase, queue } = await jobsDocsbase(handlers, { storage: storageOf()(), clock });
    for (let n = 1; n <= 6; n++) await queue("slow", 0, { n }, "a");
    advance(1000);
    await queue("quick", 0, {}, "b");

    const drains = [1, 2, 3, 4].map(() => docsbase.runJobs());
    // Before queues, the four drains took four of a's jobs, the earliest due, and b waited behind
    // them. Now b goes second, and a gets no more than its two running jobs: the drains that find
    // nothing else to start end.
    const ended = await firstResolved(drains, 2);
    await settled("a2 started");
    expect(log).toEqual(["a1 started", "b done", "a2 started"]);
    expect(ended.reduce((sum, ran) => sum + ran, 0)).toBe(1);

    for (let n = 1; n <= 6; n++) release(n);
    expect((await Promise.all(drains)).reduce((sum, ran) => sum + ran, 0)).toBe(7);
    expect(await docsbase.jobs()).toEqual([]);
  });

  it("runs at most two jobs of an organization at once, even alone in the queue", async () => {
    const { clock, advance } = movableClock();
    const { handlers, log, settled, release } = slowAndQuick();
    const { docsbase, queue } = await jobsDocsbase(handlers, { storage: storageOf()(), clock });
    for (let n = 1; n <= 6; n++) await queue("slow", 0, { n }, "a");
    const drains = [1, 2, 3, 4].map(() => docsbase.runJobs());
    await settled("a2 started");
    // Two drains hold a1 and a2; the other two found nothing a may start and ended, so a drain is
    // free for another organization whose job falls due later.
    expect(await firstResolved(drains, 2)).toEqual([0, 0]);
    expect(log).toEqual(["a1 started", "a2 started"]);

    advance(1000);
    await queue("quick", 0, {}, "b");
    expect(await docsbase.runJobs()).toBe(1);
    expect(log).toEqual(["a1 started", "a2 started", "b done"]);

    for (let n = 1; n <= 6; n++) release(n);
    expect((await Promise.all(drains)).reduce((sum, ran) => sum + ran, 0)).toBe(6);
  });

  it("keeps an organization to its share of running jobs across instances sharing a storage", async () => {
    const shared = storageOf();
    const { clock, advance } = movableClock();
    const { handlers, log, settled, release } = slowAndQuick();
    const one = await jobsDocsbase(handlers, { storage: shared(), clock });
    const two = await jobsDocsbase(handlers, { storage: shared(), clock });
    for (let n = 1; n <= 3; n++) await one.queue("slow", 0, { n }, "a");
    const first = [1, 2].map(() => one.docsbase.runJobs());
    await settled("a2 started");

    advance(1000);
    await two.queue("quick", 0, {}, "b");
    // "a" queued first, but holds its share of leases (taken by the other instance): "b" goes.
    expect(MAX_RUNNING_PER_ORGANIZATION).toBe(2);
    const second = two.docsbase.runJobs();
    await settled("b done", "a3 started");
    expect(log).toEqual(["a1 started", "a2 started", "b done"]);

    for (let n = 1; n <= 3; n++) release(n);
    expect([...(await Promise.all(first)), await second].reduce((sum, ran) => sum + ran, 0)).toBe(4);
  });

  it("lets organizations take turns, the one with fewer jobs started first among equals", async () => {
    const order: string[] = [];
    const handlers = {
      mark: (async (_world, payload) => void order.push(String(payload["org"]))) satisfies JobHandler,
    };
    const { docsbase, queue } = await jobsDocsbase(handlers, {
      storage: storageOf()(),
      clock: movableClock().clock,
    });
    for (const org of ["a", "a", "a", "b", "b", "b", "c"]) await queue("mark", 0, { org }, org);
    expect(await docsbase.runJobs()).toBe(7);
    expect(order).toEqual(["a", "b", "c", "a", "b", "a", "b"]);
  });

  it("runs jobs queued without an organization, and those queued before organizations had queues", async () => {
    const storage = storageOf()();
    const { clock } = movableClock();
    const order: string[] = [];
    const handlers = {
      mark: (async (_world, payload) => void order.push(String(payload["name"]))) satisfies JobHandler,
    };
    const { docsbase, queue } = await jobsDocsbase(handlers, { storage, clock });
    // As docsbase 0.1.0 stored it: no organization, no queue record.
    await storage.write((tx) =>
      tx.put(jobsTable, { id: "old", type: "mark", runAt: clock().toISOString(), payload: { name: "old" } }),
    );
    await queue("mark", 0, { name: "none" });
    await queue("mark", 0, { name: "a" }, "a");
    expect(await docsbase.runJobs()).toBe(3);
    expect([...order].sort()).toEqual(["a", "none", "old"]);
    expect(await docsbase.jobs()).toEqual([]);
  });
});
